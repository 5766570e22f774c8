import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { CARD_LIMITS } from '@contract/create';
import { OZON_IMAGE_RULES } from '@contract/edit';
import { ImageList } from '@/components/attribute-form/ImageList';
import { renderWithApp } from '../renderApp';

type Upload = { file: File; answer: (url: string) => void; refuse: (message: string) => void };

function Harness({ start, upload, seen }: { start: string[]; upload: (file: File) => Promise<string>; seen: (images: string[]) => void }) {
  const [images, setImages] = useState(start);
  return (
    <ImageList
      images={images}
      onUpload={upload}
      onChange={(next) => {
        seen(next);
        setImages(next);
      }}
    />
  );
}

/** The image list with an upload that answers only when the test says so, as a slow server would. */
function setup(start: string[] = []) {
  const uploads: Upload[] = [];
  let images = start;
  const upload = (file: File) =>
    new Promise<string>((resolve, reject) => uploads.push({ file, answer: resolve, refuse: (message) => reject({ type: 'BadRequest', message }) }));
  renderWithApp(<Harness start={start} upload={upload} seen={(next) => (images = next)} />);
  // The seller may pick "all files" in the system dialog, so the picker's accept list is no guard.
  const user = userEvent.setup({ applyAccept: false });
  const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
  return { uploads, images: () => images, pick: (...files: File[]) => user.upload(input, files) };
}

const png = (name: string, size = 1_000) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const uploadList = () => screen.getByRole('list', { name: '上传中的图片' });

describe('uploading pictures in the card form', () => {
  it('refuses a file that is not JPG or PNG and one over 10 MB, naming the file and what is wrong, without sending them', async () => {
    const { uploads, pick } = setup();
    await pick(new File(['GIF89a'], '动图.gif', { type: 'image/gif' }), png('大图.png', OZON_IMAGE_RULES.maxBytes + 1));
    expect(await screen.findByText('动图.gif 上传失败：不是JPG或PNG图片')).toBeInTheDocument();
    expect(screen.getByText('大图.png 上传失败：文件 10 MB，超过 10 MB 的上限')).toBeInTheDocument();
    expect(uploads).toHaveLength(0);
    // The seller dismisses a refusal.
    await userEvent.click(within(uploadList()).getAllByRole('button', { name: '关闭' })[0]!);
    expect(screen.queryByText(/动图\.gif/)).toBeNull();
  });

  it('sends files one at a time with the count so far, adds what the server stores and names the file the server refused', async () => {
    const { uploads, images, pick } = setup(['/api/edit/picture/first-token-0000000.png']);
    await pick(png('正面.png'), png('侧面.png'));
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(screen.getByText('已上传 0 / 2')).toBeInTheDocument();
    expect(within(uploadList()).getByText(/正面\.png · 上传中…/)).toBeInTheDocument();
    expect(within(uploadList()).getByText(/侧面\.png · 等待上传/)).toBeInTheDocument();

    await act(async () => uploads[0]!.answer('/api/edit/picture/front-token-0000000.png'));
    await waitFor(() => expect(uploads).toHaveLength(2));
    expect(screen.getByText('已上传 1 / 2')).toBeInTheDocument();
    expect(images()).toEqual(['/api/edit/picture/first-token-0000000.png', '/api/edit/picture/front-token-0000000.png']);

    await act(async () => uploads[1]!.refuse('图片边长不能小于200像素（Ozon要求）'));
    expect(await screen.findByText('侧面.png 上传失败：图片边长不能小于200像素（Ozon要求）')).toBeInTheDocument();
    expect(screen.queryByText(/已上传/)).toBeNull();
    expect(images()).toHaveLength(2);
    expect(screen.getAllByRole('listitem').filter((item) => item.querySelector('img'))).toHaveLength(2);
  });

  it('sends no more than the card has room for', async () => {
    const full = Array.from({ length: CARD_LIMITS.images - 1 }, (_, i) => `/api/edit/picture/token-${i}-000000000.png`);
    const { uploads, images, pick } = setup(full);
    await pick(png('a.png'), png('b.png'));
    expect(await screen.findByText(`b.png 上传失败：商品最多 ${CARD_LIMITS.images} 张图片，已满`)).toBeInTheDocument();
    await waitFor(() => expect(uploads).toHaveLength(1));
    await act(async () => uploads[0]!.answer('/api/edit/picture/last-token-00000000.png'));
    await waitFor(() => expect(images()).toHaveLength(CARD_LIMITS.images));
    expect(screen.getByRole('button', { name: /上传图片/ })).toBeDisabled();
  });
});
