import { ConfigProvider } from 'antd';
import useAlertStyle from 'antd/es/alert/style';
import useAvatarStyle from 'antd/es/avatar/style';
import useBreadcrumbStyle from 'antd/es/breadcrumb/style';
import useButtonStyle from 'antd/es/button/style';
import useCheckboxStyle from 'antd/es/checkbox/style';
import usePickerStyle from 'antd/es/date-picker/style';
import useDrawerStyle from 'antd/es/drawer/style';
import useDropdownStyle from 'antd/es/dropdown/style';
import useInputStyle from 'antd/es/input/style';
import useInputNumberStyle from 'antd/es/input-number/style';
import useLayoutStyle from 'antd/es/layout/style';
import useMessageStyle from 'antd/es/message/style';
import useSiderStyle from 'antd/es/layout/style/sider';
import useMenuStyle from 'antd/es/menu/style';
import useModalStyle from 'antd/es/modal/style';
import useSelectStyle from 'antd/es/select/style';
import useSpinStyle from 'antd/es/spin/style';
import useTagStyle from 'antd/es/tag/style';
import useTooltipStyle from 'antd/es/tooltip/style';
import useTypographyStyle from 'antd/es/typography/style';
import { useContext } from 'react';

/**
 * The CSS variables of the antd components the shell and the list pages use, all inserted with the app's first
 * render. antd's static sheet (main.tsx) holds the components' rules, but each component type still inserts its own
 * block of variables (`.css-var-….ant-select-css-var{--ant-select-…}`) when its first instance mounts, and every
 * stylesheet added to a live page makes the browser restyle the antd elements already on it: on a cold load of the
 * order list, blocks came at 0.5-3.2 s, and the two that came with the menu and the filter bar's pickers were
 * 40-45 ms style recalculations, long tasks of their own. At the first render the page holds nothing to restyle.
 * The calls are the components' own (same class names and arguments), so their later mounts find the blocks
 * already in and insert nothing.
 */
export function AntdVars() {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const root = (name: string) => `${getPrefixCls(name)}-css-var`;
  useLayoutStyle(getPrefixCls('layout'));
  useSiderStyle(getPrefixCls('layout-sider'));
  useMenuStyle(getPrefixCls('menu'), root('menu'), true);
  useBreadcrumbStyle(getPrefixCls('breadcrumb'));
  useDropdownStyle(getPrefixCls('dropdown'), root('dropdown'));
  useTooltipStyle(getPrefixCls('tooltip'), root('tooltip'), true);
  useAvatarStyle(getPrefixCls('avatar'), root('avatar'));
  useButtonStyle(getPrefixCls('btn'));
  useInputStyle(getPrefixCls('input'), root('input'));
  useInputStyle(getPrefixCls('input'));
  useSelectStyle(getPrefixCls('select'), root('select'));
  usePickerStyle(getPrefixCls('picker'), root('picker'));
  useInputNumberStyle(getPrefixCls('input-number'), root('input-number'));
  useCheckboxStyle(getPrefixCls('checkbox'), root('checkbox'));
  useTagStyle(getPrefixCls('tag'));
  useTypographyStyle(getPrefixCls('typography'));
  useSpinStyle(getPrefixCls('spin'));
  useDrawerStyle(getPrefixCls('drawer'));
  useModalStyle(getPrefixCls('modal'), root('modal'));
  useAlertStyle(getPrefixCls('alert'));
  // The first toast (an export's progress) mounted the message's block mid-task.
  useMessageStyle(getPrefixCls('message'), root('message'));
  return null;
}
