/**
 * The plugin's texts. zh defines the keys; en must have the same ones (typecheck fails otherwise); `$1` is filled by
 * pluginText's substitution. plugin/build.ts also writes them as Chromium's `_locales/<lang>/messages.json`, which
 * the manifest's name and description read.
 */
const zh = {
  extName: '跨境卖家后台 · 采集插件',
  extDescription: '在Ozon和1688商品页一键采集商品到跨境卖家后台的采集箱',
  collect: '采集到卖家后台',
  collecting: '正在采集…',
  collected: '已加入采集箱：$1',
  refreshed: '采集箱中已有此商品，已按页面更新：$1',
  openInList: '在采集箱中查看',
  notProduct: '此页面没有可采集的商品（可能是验证页、已下架或页面未加载完）',
  notConnected: '插件尚未连接到卖家后台',
  connectHere: '去连接',
  failed: '采集失败：$1',
  unreachable: '无法连接卖家后台（$1），请检查网络或后台是否运行',
  popupConnectedAs: '已连接：$1',
  popupServer: '后台地址：$1',
  popupNotConnected: '尚未连接。请在卖家后台的“采集插件”页点击“连接插件”，或粘贴在该页生成的令牌：',
  popupTokenPlaceholder: '粘贴插件令牌（sbp_…）',
  popupConnect: '连接',
  popupDisconnect: '断开连接',
  popupOpenPlugin: '打开插件页',
  popupOpenCollection: '打开采集箱',
  popupHowTo: '打开Ozon或1688的商品页，点击页面右下角的“采集到卖家后台”，或点击下面的按钮。',
  popupCollectTab: '采集当前页面的商品',
  popupNotProductTab: '当前标签页不是Ozon或1688的商品页（如果是，请刷新该页后再试）',
} as const;
export type PluginTextKey = keyof typeof zh;

const en: Record<PluginTextKey, string> = {
  extName: 'Seller Back Office · Collector',
  extDescription: "Collect products from Ozon and 1688 product pages into the Seller Back Office's collection in one click",
  collect: 'Collect to the back office',
  collecting: 'Collecting…',
  collected: 'Added to your collection: $1',
  refreshed: 'Already in your collection, updated from the page: $1',
  openInList: 'Open in the collection',
  notProduct: 'This page shows no product to collect (a verification page, a product that is gone, or the page is still loading)',
  notConnected: 'The plugin is not connected to the back office yet',
  connectHere: 'Connect it',
  failed: 'Collecting failed: $1',
  unreachable: 'The back office ($1) cannot be reached; check the network and that it is running',
  popupConnectedAs: 'Connected as $1',
  popupServer: 'Back office: $1',
  popupNotConnected: 'Not connected. On the back office\'s plugin page click "Connect the plugin", or paste a token made there:',
  popupTokenPlaceholder: 'Paste a plugin token (sbp_…)',
  popupConnect: 'Connect',
  popupDisconnect: 'Disconnect',
  popupOpenPlugin: 'Open the plugin page',
  popupOpenCollection: 'Open the collection',
  popupHowTo: 'Open an Ozon or 1688 product page and click "Collect to the back office" at its bottom right, or the button below.',
  popupCollectTab: "Collect this tab's product",
  popupNotProductTab: 'This tab is not an Ozon or 1688 product page (if it is, reload it and try again)',
};

export const PLUGIN_TEXTS = { zh, en };

/**
 * A text in the language the browser asks pages for (navigator.language, the user's first content language):
 * Chinese for zh-*, English otherwise. Not chrome.i18n, which follows the browser's own UI language: a Chinese seller
 * on an English Chrome reads the app in Chinese and should read the plugin so too.
 */
export function pluginText(key: PluginTextKey, substitution = '', lang: PluginLang = pageLang()): string {
  return PLUGIN_TEXTS[lang][key].replace('$1', substitution);
}

export type PluginLang = keyof typeof PLUGIN_TEXTS;

/** The page's language, which the scripts also hand the service worker (a worker's navigator may differ). */
export function pageLang(): PluginLang {
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
