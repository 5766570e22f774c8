import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ExportFormat, ExportProgress } from '@workers/researchExport';
import { ResearchExport } from '@/features/research/ResearchExport';
import { renderWithApp } from '../renderApp';

/** An export the test drives: it hears the progress the worker would send and settles when told. */
function drivenExport() {
  const calls: { format: ExportFormat; onProgress: ExportProgress; resolve: (file: Blob) => void; reject: (failure: unknown) => void }[] = [];
  const start = vi.fn((format: ExportFormat, onProgress: ExportProgress) => new Promise<Blob>((resolve, reject) => calls.push({ format, onProgress, resolve, reject })));
  const cancel = vi.fn(async () => undefined);
  return { calls, start, cancel };
}

async function startExport(user: ReturnType<typeof userEvent.setup>, format: string) {
  await user.hover(screen.getByRole('button', { name: /导出/ }));
  await user.click(screen.getByRole('button', { name: /导出/ }));
  await user.click(await screen.findByText(format));
}

describe('a research list export in the toolbar', () => {
  it('counts the rows written while it runs, and a cancel stops it and gives the button back', async () => {
    const user = userEvent.setup();
    const driven = drivenExport();
    renderWithApp(<ResearchExport disabled={false} fileName="research-hot" start={driven.start} cancel={driven.cancel} />);
    await startExport(user, 'Excel (.xlsx)');
    expect(driven.start).toHaveBeenCalledTimes(1);
    expect(driven.calls[0]!.format).toBe('xlsx');
    act(() => driven.calls[0]!.onProgress(5_000, 20_000));
    expect(await screen.findByText('正在导出：5,000 / 20,000 行')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: '导出' })).toHaveAttribute('aria-valuenow', '25');

    await user.click(screen.getByRole('button', { name: '取消导出' }));
    expect(driven.cancel).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(/正在导出/)).toBeNull();
    await act(async () => driven.calls[0]!.reject({ type: 'Aborted', code: 0, message: 'cancelled' }));
    expect(screen.getByRole('button', { name: /导出/ })).toBeEnabled();
    expect(document.querySelector('.ant-message')?.textContent ?? '').toBe('');
  });

  it("shows the server's refusal of a result past the cap", async () => {
    const user = userEvent.setup();
    const driven = drivenExport();
    renderWithApp(<ResearchExport disabled={false} fileName="research-hot" start={driven.start} cancel={driven.cancel} />);
    await startExport(user, 'CSV (.csv)');
    const refusal = '导出最多 100,000 行，此结果超过 100,000 行：请缩小筛选范围后再导出';
    await act(async () => driven.calls[0]!.reject({ type: 'InvalidInput', code: 400, message: refusal }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /导出/ })).toBeEnabled();
  });
});
