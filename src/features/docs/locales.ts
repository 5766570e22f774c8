import { defineLocales } from '@/app/locales/define';

/** The documentation page's texts (namespace `docs`): how to use the back office, section by section in reading order. */
export const docs = defineLocales({
  zh: {
    title: '使用文档',
    intro: '本后台帮助 Ozon 跨境卖家在一个地方管理店铺、订单、商品和数据。下面说明界面的用法。',
    sections: {
      account: {
        heading: '登录与账号',
        points: [
          '用用户名、密码和图片验证码登录；看不清验证码时点击图片换一张。',
          '在“个人中心 → 修改密码”修改密码；修改后其他设备上的登录会失效。',
          '账号角色决定能看到哪些菜单：跟卖用户可用店铺、订单、商品等功能，选品用户可用数据分析，管理员可用全部功能。',
        ],
      },
      menu: {
        heading: '菜单与标签页',
        points: [
          '左侧菜单列出您的角色可以使用的页面；点击顶栏左侧的折叠按钮可收起或展开菜单，状态会被记住。',
          '菜单上方的搜索框可按名称查找页面，开启拼音搜索后也可输入拼音或拼音首字母，例如“ddgl”找到“订单管理”。',
          '打开过的页面显示为标签页，切换标签时页面内容保持不变。中键点击、标签上的关闭图标或右键菜单都可以关闭标签；“系统介绍”标签固定不可关闭。',
          '右键菜单中的“刷新”会重新加载该页面，“关闭其他”只保留当前和固定标签，标签栏右侧的“关闭所有”关闭全部可关闭的标签。',
        ],
      },
      topBar: {
        heading: '顶栏',
        points: [
          '点击 Logo 回到首页；“插件下载”进入浏览器插件页面；“使用文档”打开本页。',
          '公告栏显示最新公告的日期和内容，关闭后同一条公告不再显示，有新公告时会再次出现。',
          '全局尺寸可选小、中、大；语言可选简体中文、English、Español、日本語、Português。',
          '设置按钮打开布局设置：主题色、是否显示标签页、固定头部、侧边栏 Logo、拼音搜索。设置保存在本浏览器中。',
        ],
      },
      updates: {
        heading: '更新与提示',
        points: [
          '系统发布新版本时，右上角会出现“系统已更新”的提示，点击即可刷新到新版本。',
          '有新功能上线时会弹出更新说明，点击“我已阅读不再提示”后不再显示。',
        ],
      },
      admin: {
        heading: '管理员',
        points: [
          '“运营后台 → 用户管理”可以搜索、新增、编辑和删除用户，分配角色，设置跟卖、插件、选品、关键词四项功能的有效期，并重置密码。',
          '“运营后台 → 公告管理”可以发布、编辑和删除公告；最新的一条会显示在用户的公告栏中。',
        ],
      },
    },
  },
  en: {
    title: 'Documentation',
    intro: 'This back office helps cross-border sellers on Ozon manage shops, orders, products and data in one place. This page explains how to use it.',
    sections: {
      account: {
        heading: 'Logging in and your account',
        points: [
          'Log in with your user name, password and the picture captcha; click the picture for a new one if it is hard to read.',
          'Change your password under "Profile → Change password"; logins on other devices end afterwards.',
          'Your roles decide which menus you see: follow sellers get shops, orders and products, product researchers get data analysis, administrators get everything.',
        ],
      },
      menu: {
        heading: 'Menu and tabs',
        points: [
          'The left menu lists the pages your roles may open; the fold button at the top left collapses or expands it, and the choice is remembered.',
          'The search box above the menu finds pages by name; with pinyin search on, pinyin or its initials work too, e.g. "ddgl" finds 订单管理.',
          'Pages you opened stay as tabs and keep their content while you switch. Close a tab by middle-click, its close icon or the right-click menu; the "About the system" tab is pinned.',
          'In the right-click menu, "Refresh" reloads the page and "Close others" keeps only that tab and the pinned ones; "Close all" on the right of the bar closes every closable tab.',
        ],
      },
      topBar: {
        heading: 'Top bar',
        points: [
          'The logo goes home; "Plugin" opens the browser plugin page; "Docs" opens this page.',
          'The notice banner shows the newest notice with its date; once closed, that notice stays closed until a newer one is published.',
          'Size offers small, medium and large; the language menu offers 简体中文, English, Español, 日本語 and Português.',
          'The settings button opens the layout settings: theme colour, tabs, fixed header, sidebar logo and pinyin search, saved in this browser.',
        ],
      },
      updates: {
        heading: 'Updates',
        points: [
          'When a new release is out, a notification in the top right says so; click it to reload into the new version.',
          'When new features ship, a dialog lists them; "I have read it, do not show again" keeps it closed.',
        ],
      },
      admin: {
        heading: 'Administrators',
        points: [
          '"Operations console → Users" searches, adds, edits and deletes users, assigns roles, sets the follow, plugin, product-search and keyword validity periods, and resets passwords.',
          '"Operations console → Notices" publishes, edits and deletes notices; the newest one shows in every user\'s notice banner.',
        ],
      },
    },
  },
});
