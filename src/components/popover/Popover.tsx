import { Popover as AntdPopover, type PopoverProps as AntdPopoverProps } from 'antd';

/** Spec §9: the popover waits 200 ms before closing, so the pointer can travel into it. */
export const POPOVER_CLOSE_DELAY_MS = 200;

export type PopoverProps = AntdPopoverProps;

export function Popover({ mouseLeaveDelay = POPOVER_CLOSE_DELAY_MS / 1000, ...rest }: PopoverProps) {
  return <AntdPopover mouseLeaveDelay={mouseLeaveDelay} {...rest} />;
}
