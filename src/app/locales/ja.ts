import type { ShellResources } from './shell';

export const ja: ShellResources = {
  site: { title: 'セラー管理画面', short: '管理画面', tagline: 'Ozon 越境セラーのためのオールインワン管理画面' },
  common: { loading: '読み込み中…', language: '言語', logout: 'ログアウト', backHome: 'ホームへ戻る', save: '保存', cancel: 'キャンセル' },
  route: {
    login: 'ログイン', register: '新規登録', forgot: 'パスワードの再設定', notFound: 'ページが見つかりません', redirect: 'リダイレクト中', home: 'ホーム',
    introduction: 'システム紹介', profile: 'プロフィール', modifyPsw: 'パスワード変更', store: 'ショップ管理', storeList: 'ショップ一覧',
    copy: '商品コピー', copyProduct: '商品をコピー', copyHistory: 'コピー履歴', collection: '商品収集', collectionList: '収集リスト',
    uploadHistory: 'アップロード履歴', create: 'バックアップ出品', createProduct1: '商品作成', createProduct2: 'バックアップ出品',
    edit: '画像編集', editImage: '画像編集', orders: '注文管理', orderList: 'マーケット注文', recordList: '登録注文', allCopyHistory: '統合コピー一覧',
    product: '商品管理', ozonProductList: '商品一覧', ozProductList: '商品一覧（新版）', ozReuploadProduct: '取り下げと再出品',
    action: 'プロモーション', ozActionList: 'プロモーション一覧', dataAnalysis: 'データ分析', hotProductPro: '売れ筋商品',
    hotNewProduct: '新商品', cnProductPro: '中国セラー商品', keyWord: 'キーワード調査', potentialProduct: '有望商品', marketData: '市場データ', returns: '返品管理',
    returnList: '返品一覧', returnListNew: '返品一覧（新版）', chat: '購入者メッセージ', chatList: 'チャット一覧', analyze: '売上分析',
    saleAnalyze: 'ショップ売上分析', track: '配送追跡', trackSearch: '荷物追跡', tool: 'ツール', currencyChange: '為替換算',
    rusPost: 'ロシア郵便番号', ozonSeller: 'Ozon Seller', admin: '運用コンソール', userManager: 'ユーザー管理', noticeManager: 'お知らせ管理', featureUpdateManager: '更新情報', team: 'チーム管理', teamMembers: 'メンバー', teamRoles: 'ロール', teamDepartments: '部署', teamPositions: '役職', teamLog: '操作ログ', teamOnline: 'オンラインのメンバー', teamSecurity: 'サインインのセキュリティ', teamAccessPolicies: 'アクセスポリシー', teamAccessLog: 'アクセスログ', teamApiClients: 'アプリケーション',
    docs: 'ドキュメント', plugin: 'プラグインのダウンロード',
    flows: 'フロー',
  },
  role: { admin: '管理者', follow: '相乗り出品ユーザー', search: '商品リサーチ', keyword: 'キーワード調査', common: '一般ユーザー' },
  navbar: {
    toggleSidebar: 'サイドバーを開閉', plugin: 'プラグイン', docs: 'ドキュメント', profile: 'プロフィール', settings: '設定', size: 'サイズ',
    sizes: { small: '小', medium: '中', large: '大' }, errorLog: 'エラーログ', menuSearch: 'メニューを検索', menuSearchEmpty: '該当するメニューはありません',
  },
  tagsView: { refresh: '再読み込み', close: '閉じる', closeOthers: '他を閉じる', closeAll: 'すべて閉じる', closeTab: 'タブ {{title}} を閉じる' },
  settings: {
    title: 'レイアウト設定', theme: 'テーマカラー', tagsView: 'タブを表示', fixedHeader: 'ヘッダーを固定', sidebarLogo: 'サイドバーのロゴ',
    supportPinyinSearch: 'ピンイン検索', antiInspection: '開発者ツールをブロック', displayCurrency: '金額の表示通貨', displayCurrencyHint: '換算後の金額を先に、元の金額を括弧内に表示します。カーソルを合わせるとレートと日付を表示します', currency: { original: '元の通貨（換算しない）', CNY: '人民元 CNY', RUB: 'ルーブル RUB' },
    antiInspectionHint: 'ブラウザ拡張機能や支援ツールの妨げになるため、既定ではオフです。開発環境では常に無効です。', reset: 'リセット',
  },
  money: {
    rateOn: 'ロシア中央銀行 {{date}} のレート：1 {{from}} = {{rate}} {{to}}',
    stale: '（ロシア中央銀行に接続できません。最後に読み込んだレートです：{{problem}}）',
    reading: 'ロシア中央銀行の当日レートを読み込み中です。元の通貨で表示しています',
    unavailable: '{{to}} に換算していません：ロシア中央銀行のレートを読み込めません（{{reason}}）。元の通貨で表示しています',
    noRate: '{{to}} に換算していません：ロシア中央銀行は {{from}} のレートを公表していません。元の通貨で表示しています',
    saveFailed: '表示通貨を保存できませんでした：{{reason}}',
  },
  notice: { label: 'お知らせ', close: 'お知らせを閉じる' },
  version: { title: 'システム通知', text: 'サービスが更新されました。クリックして再読み込みしてください' },
  featureUpdate: { close: '閉じる', confirm: '読みました。今後表示しない' },
  errorLog: { title: 'エラーログ', empty: 'エラーはありません', message: 'エラー', info: '場所', url: 'ページ', time: '時刻', clear: 'クリア' },
};
