import { act, render } from '@testing-library/react';
import { ConfigProvider, DatePicker, Menu, Select } from 'antd';
import { useState } from 'react';
import { AntdVars } from '@/app/AntdVars';

const varBlocks = () => [...document.head.querySelectorAll('style[data-css-hash]')].map((style) => style.textContent ?? '');

describe("antd's component CSS variables", () => {
  it('are all inserted with the first render, so mounting the components later adds no stylesheet to the page', () => {
    let show: (on: boolean) => void = () => undefined;
    function Page() {
      const [on, setOn] = useState(false);
      show = setOn;
      return on ? (
        <>
          <Menu items={[{ key: 'a', label: 'a' }]} />
          <Select options={[{ value: 1, label: 'one' }]} />
          <DatePicker />
        </>
      ) : null;
    }
    render(
      <ConfigProvider theme={{ zeroRuntime: true }}>
        <AntdVars />
        <Page />
      </ConfigProvider>,
    );
    const first = varBlocks();
    expect(first.some((css) => css.includes('--ant-select-'))).toBe(true);
    expect(first.some((css) => css.includes('--ant-menu-'))).toBe(true);
    // The toasts' (an export's progress): the first one mounted mid-task.
    expect(first.some((css) => css.includes('--ant-message-'))).toBe(true);

    act(() => show(true));
    // The components are on the page, and the style elements are the ones the first render put in.
    expect(document.querySelector('.ant-select')).not.toBeNull();
    expect(varBlocks()).toEqual(first);
  });
});
