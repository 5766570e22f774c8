import { Typography } from 'antd';

/** A label with Ozon's required mark before it. */
export function RequiredMark({ required, children }: { required: boolean; children: React.ReactNode }) {
  return (
    <span>
      {required ? (
        <Typography.Text type="danger" aria-hidden style={{ marginInlineEnd: 4 }}>
          *
        </Typography.Text>
      ) : null}
      {children}
    </span>
  );
}
