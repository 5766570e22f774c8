/**
 * The error codes of the spec's catalogue (seller-tool §8), used both as HTTP status and as the envelope's `code`,
 * and the messages a user sees for each. The server answers with these codes; the worker's HTTP client turns them
 * into typed failures carrying the catalogue's text in the user's language.
 */
export const ERROR_CODES = {
  invalidInput: 400,
  unauthorized: 401,
  tokenExpired: 402,
  notFound: 404,
  tooManyRequests: 429,
  pageExpired: 468,
  serverError: 500,
  badGateway: 502,
  databaseUnavailable: 503,
  marketplaceTimeout: 504,
  duplicateUser: 507,
  captchaMissing: 508,
  captchaWrong: 509,
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** The languages of the server's messages: zh, en and pt (Brazilian Portuguese), as the pages. */
export type Lang = 'zh' | 'en' | 'pt';
export const LANGS: readonly Lang[] = ['zh', 'en', 'pt'];

export type Localized = Record<Lang, string>;

/** The same text made in every language. */
export function eachLang(text: (lang: Lang) => string): Localized {
  return { zh: text('zh'), en: text('en'), pt: text('pt') };
}

/**
 * A text that may hold zh and en only: one an administrator wrote (an announcement), one stored before pt existed
 * (a sync error), or a name from outside data. A pt reader gets the English then.
 */
export type ZhEnText = { zh: string; en: string; pt?: string };
export function textIn(text: ZhEnText, lang: Lang): string {
  return text[lang] ?? text.en;
}

/** The catalogue's fixed texts (seller-tool §8). Anything else is shown as the server sent it. */
export const MESSAGES = {
  unauthorized: { zh: '权限已过期或无权限操作，请联系管理员', en: 'Your permission has expired or you may not do this; please contact the administrator', pt: 'Sua permissão expirou ou você não pode fazer isso; fale com o administrador' },
  tokenExpired: { zh: '登录状态已过期，请重新登录', en: 'Your login has expired, please log in again', pt: 'Sua sessão expirou, entre novamente' },
  tooManyRequests: { zh: '请求频率太快，请稍后重试', en: 'Too many requests, please try again later', pt: 'Muitas solicitações, tente de novo mais tarde' },
  pageExpired: { zh: '验证已过期，请重新刷新网页', en: 'Verification has expired, please reload the page', pt: 'A verificação expirou, recarregue a página' },
  marketplaceTimeout: { zh: 'ozon接口请求超时', en: 'The Ozon API timed out', pt: 'A API da Ozon não respondeu a tempo' },
  duplicateUser: { zh: '该用户名已存在，请重新输入', en: 'This user name already exists, please choose another', pt: 'Este nome de usuário já existe, escolha outro' },
  captchaMissing: { zh: '验证码为空', en: 'Please enter the captcha', pt: 'Informe o código de verificação' },
  captchaWrong: { zh: '验证码不正确或已失效，请重新输入', en: 'The captcha is wrong or has expired, please enter it again', pt: 'O código de verificação está errado ou expirou, informe-o de novo' },
  network: { zh: '网络问题，请重试', en: 'Network problem, please try again', pt: 'Problema de rede, tente de novo' },
  retriesExhausted: { zh: '网络问题，请重试或刷新网页', en: 'Network problem, please retry or reload the page', pt: 'Problema de rede, tente de novo ou recarregue a página' },
  passwordChanged: { zh: '该用户密码已被修改，请重新登录！', en: 'This user\'s password has been changed, please log in again!', pt: 'A senha deste usuário foi alterada, entre novamente!' },
  verificationFailed: { zh: 'Verification failed, please Login again.', en: 'Verification failed, please Login again.', pt: 'Verification failed, please Login again.' },
  rolesEmpty: { zh: 'getInfo: roles must be a non-null array!', en: 'getInfo: roles must be a non-null array!', pt: 'getInfo: roles must be a non-null array!' },
  hasError: { zh: 'Has Error', en: 'Has Error', pt: 'Has Error' },
  databaseUnavailable: { zh: '数据库暂不可用，正在重试', en: 'The database is unavailable for the moment; retrying', pt: 'O banco de dados está indisponível no momento; tentando de novo' },
  serverError: { zh: '服务器内部错误，请稍后重试', en: 'Internal server error, please try again later', pt: 'Erro interno do servidor, tente de novo mais tarde' },
  notFound: { zh: '请求的资源不存在', en: 'The requested resource does not exist', pt: 'O recurso solicitado não existe' },
  wrongCredentials: { zh: '用户名或密码错误', en: 'Wrong user name or password', pt: 'Usuário ou senha incorretos' },
  passwordPolicy: { zh: '密码须为8-64位，且同时包含字母和数字', en: 'The password must be 8 to 64 characters and contain both letters and digits', pt: 'A senha deve ter de 8 a 64 caracteres, com letras e números' },
  pswRuleLength: { zh: '长度为{n}到{max}位', en: '{n} to {max} characters', pt: 'De {n} a {max} caracteres' },
  pswRuleLetter: { zh: '包含字母', en: 'Contains a letter', pt: 'Contém uma letra' },
  pswRuleDigit: { zh: '包含数字', en: 'Contains a digit', pt: 'Contém um número' },
  pswRuleUpper: { zh: '包含大写字母', en: 'Contains an upper-case letter', pt: 'Contém uma letra maiúscula' },
  pswRuleLower: { zh: '包含小写字母', en: 'Contains a lower-case letter', pt: 'Contém uma letra minúscula' },
  pswRuleSpecial: { zh: '包含特殊字符（如 !@#$%）', en: 'Contains a special character (such as !@#$%)', pt: 'Contém um caractere especial (como !@#$%)' },
  pswRuleNotUsername: { zh: '不包含用户名', en: 'Does not contain the user name', pt: 'Não contém o nome de usuário' },
  pswRuleNotEmail: { zh: '不包含邮箱地址', en: 'Does not contain the e-mail address', pt: 'Não contém o endereço de e-mail' },
  pswRuleNotPhone: { zh: '不包含手机号', en: 'Does not contain the phone number', pt: 'Não contém o número de telefone' },
  pswRuleNotCommon: { zh: '不是常见密码', en: 'Is not a common password', pt: 'Não é uma senha comum' },
  pswRuleHistory: { zh: '不能与最近{n}次使用过的密码相同', en: 'Is not one of the last {n} passwords', pt: 'Não é uma das últimas {n} senhas' },
  /** A password the policy in force refuses; `{rule}`: the rule's name (pswRule*). */
  passwordRefused: { zh: '密码不符合密码策略：{rule}', en: 'The password breaks the password policy: {rule}', pt: 'A senha não cumpre a política de senha: {rule}' },
  passwordChangeRequired: { zh: '请先修改密码，再继续使用', en: 'Change your password before going on', pt: 'Altere a sua senha antes de continuar' },
  passwordExpired: { zh: '密码已过期，请修改密码后继续', en: 'Your password has expired; change it to go on', pt: 'A sua senha expirou; altere-a para continuar' },
  passwordNotAccepted: { zh: '密码不再符合密码策略，请修改密码后继续', en: 'Your password no longer meets the password policy; change it to go on', pt: 'A sua senha não cumpre mais a política de senha; altere-a para continuar' },
  passwordExpiresSoon: { zh: '密码将在{n}天后过期，请及时修改', en: 'Your password expires in {n} days; change it soon', pt: 'A sua senha expira em {n} dias; altere-a logo' },
  policyMinLength: { zh: '最小长度须为8到64', en: 'The minimum length must be 8 to 64', pt: 'O comprimento mínimo deve ser de 8 a 64' },
  policyValidDays: { zh: '有效期须为0到3650天（0为永久）', en: 'The validity must be 0 to 3650 days (0: for ever)', pt: 'A validade deve ser de 0 a 3650 dias (0: para sempre)' },
  policyWarnDays: { zh: '提前提醒天数须为0到365，且小于有效期', en: 'The warning must be 0 to 365 days and shorter than the validity', pt: 'O aviso deve ser de 0 a 365 dias e menor que a validade' },
  policyHistory: { zh: '历史密码次数须为0到24', en: 'The history must be 0 to 24 passwords', pt: 'O histórico deve ser de 0 a 24 senhas' },
  usernamePolicy: { zh: '用户名须为3-32位字母、数字、下划线、点、横线或汉字', en: 'The user name must be 3 to 32 letters, digits, underscores, dots, dashes or Chinese characters', pt: 'O nome de usuário deve ter de 3 a 32 letras, números, sublinhados, pontos, hifens ou caracteres chineses' },
  addressPattern: { zh: '不是有效的地址（单个地址、通配符如 192.168.1.* 或 CIDR 如 10.0.0.0/8）', en: 'is not an address (a single address, a wildcard such as 192.168.1.* or CIDR such as 10.0.0.0/8)', pt: 'não é um endereço (um endereço, um curinga como 192.168.1.* ou CIDR como 10.0.0.0/8)' },
  timeZone: { zh: '未知的时区（例如 Asia/Shanghai）', en: 'is not a known time zone (for example Asia/Shanghai)', pt: 'não é um fuso horário conhecido (por exemplo Asia/Shanghai)' },
  hourFormat: { zh: '时间格式应为 HH:MM', en: 'should be a time as HH:MM', pt: 'deve ser um horário HH:MM' },
  dateOrder: { zh: '结束日期早于开始日期', en: 'The end date is before the start date', pt: 'A data final é anterior à inicial' },
  multiFactorDeny: { zh: '拒绝策略不需要多因素认证，请用于允许策略', en: 'A deny needs no multi-factor step; set it on an allow policy', pt: 'Uma negação não precisa de verificação em dois fatores; use-a numa política de permissão' },
  wrongOldPassword: { zh: '原密码不正确', en: 'The current password is wrong', pt: 'A senha atual está incorreta' },
  unknownCurrency: { zh: '俄罗斯央行未公布该币种的汇率', en: 'The Bank of Russia publishes no rate for this currency', pt: 'O Banco da Rússia não publica cotação para esta moeda' },
  ratesUnavailable: { zh: '俄罗斯央行汇率服务暂时无法访问，且尚无已保存的汇率，请稍后重试', en: "The Bank of Russia's rate service cannot be reached and no rates are stored yet; please try again later", pt: 'O serviço de cotações do Banco da Rússia está inacessível e ainda não há cotações salvas; tente de novo mais tarde' },
  translateNoTexts: { zh: '请至少给出一段要翻译的文字', en: 'Give at least one text to translate', pt: 'Informe pelo menos um texto para traduzir' },
  translateEmptyText: { zh: '要翻译的文字不能为空', en: 'A text to translate must not be empty', pt: 'Um texto a traduzir não pode estar vazio' },
  translateTextTooLong: { zh: '每段文字最多5000个字符', en: 'Each text may have at most 5,000 characters', pt: 'Cada texto pode ter no máximo 5.000 caracteres' },
  translateTooManyTexts: { zh: '每次最多翻译100段文字', en: 'At most 100 texts per translation', pt: 'No máximo 100 textos por tradução' },
  translateTooMuchText: { zh: '每次翻译的文字合计最多20000个字符', en: 'At most 20,000 characters per translation, all texts together', pt: 'No máximo 20.000 caracteres por tradução, somando todos os textos' },
  translateLanguage: { zh: '目标语言须为 zh（中文）或 ru（俄语）', en: 'The target language must be zh (Chinese) or ru (Russian)', pt: 'O idioma de destino deve ser zh (chinês) ou ru (russo)' },
  translateUnavailable: { zh: '翻译服务暂时无法使用，原文不受影响，请稍后重试（{reason}）', en: 'The translation service is unavailable just now; the original text is unchanged, please try again later ({reason})', pt: 'O serviço de tradução está indisponível agora; o texto original não mudou, tente de novo mais tarde ({reason})' },
  translateNotConfigured: { zh: '本服务器未配置翻译服务（YANDEX_TRANSLATE_API_KEY），请联系管理员', en: 'No translation service is configured on this server (YANDEX_TRANSLATE_API_KEY); please contact the administrator', pt: 'Nenhum serviço de tradução está configurado neste servidor (YANDEX_TRANSLATE_API_KEY); fale com o administrador' },
  samePassword: { zh: '新密码不能与原密码相同', en: 'The new password must differ from the current one', pt: 'A nova senha deve ser diferente da atual' },
  invalidInput: { zh: '请求格式不正确', en: 'The request is malformed', pt: 'A solicitação está mal formada' },
  operationFailed: { zh: '操作失败', en: 'The operation failed', pt: 'A operação falhou' },
  shopNotFound: { zh: '店铺不存在', en: 'The shop does not exist', pt: 'A loja não existe' },
  shopDuplicate: { zh: '该店铺已添加', en: 'This shop has already been added', pt: 'Esta loja já foi adicionada' },
  syncFailed: { zh: '同步失败', en: 'Sync failed', pt: 'A sincronização falhou' },
  orderNotFound: { zh: '订单不存在', en: 'The order does not exist', pt: 'O pedido não existe' },
  orderNotManual: { zh: '只能修改或删除录入的订单', en: 'Only entered orders can be edited or deleted', pt: 'Só pedidos registrados manualmente podem ser editados ou excluídos' },
  orderNotShippable: { zh: '该订单当前状态不能发货', en: 'This order cannot be shipped in its current status', pt: 'Este pedido não pode ser enviado no status atual' },
  orderNoLabel: { zh: '录入的订单没有Ozon面单', en: 'Entered orders have no Ozon label', pt: 'Pedidos registrados manualmente não têm etiqueta da Ozon' },
  orderNotCancellable: { zh: '该货件当前状态不能取消（已交运或已取消）', en: 'This posting cannot be cancelled in its current status (handed over or already cancelled)', pt: 'Este envio não pode ser cancelado no status atual (já despachado ou já cancelado)' },
  orderCancelOzonOnly: { zh: '录入的订单不在Ozon上，无需取消，可直接删除', en: 'Entered orders are not on Ozon: delete them instead of cancelling', pt: 'Pedidos registrados manualmente não estão na Ozon: exclua-os em vez de cancelar' },
  postingAlreadyCancelled: { zh: '该货件已在Ozon取消', en: 'This posting was already cancelled on Ozon', pt: 'Este envio já foi cancelado na Ozon' },
  cancelMessageRequired: { zh: '选择“其他原因”时请填写取消说明', en: 'Say why when the reason is "other"', pt: 'Explique o motivo quando escolher "outro"' },
  postingAlreadyShipped: { zh: '该货件已在Ozon发货', en: 'This posting was already shipped on Ozon', pt: 'Este envio já foi despachado na Ozon' },
  productNotFoundOnOzon: { zh: 'Ozon上找不到该商品', en: 'The product was not found on Ozon', pt: 'O produto não foi encontrado na Ozon' },
  /** Ozon makes a label 45–60 s after ship and refuses the whole batch until then. `{postings}`: a few posting numbers. */
  labelsNotReady: {
    zh: 'Ozon尚未生成面单（发货后约45–60秒生成），请1分钟后重试。货件：{postings}',
    en: 'Ozon has not made the labels yet (it does 45–60 s after shipping): try again in a minute. Postings: {postings}',
    pt: 'A Ozon ainda não gerou as etiquetas (ela gera 45–60 s após o envio): tente de novo em um minuto. Envios: {postings}',
  },
  /** A list cut short: the first few items, then how many in all (zh) or how many more (en). */
  postingsAndMore: { zh: '{shown} 等{count}个', en: '{shown} and {more} more', pt: '{shown} e mais {more}' },
  listSeparator: { zh: '、', en: ', ', pt: ', ' },
  shopKeyInvalid: { zh: '店铺授权已失效，请重新授权', en: 'The shop\'s key no longer works; authorize it again', pt: 'A chave da loja não funciona mais; autorize de novo' },
  labelsNeedShipping: {
    zh: '货件尚未发货，发货后才能打印面单：{postings}',
    en: 'These postings are not shipped yet; labels exist only after shipping: {postings}',
    pt: 'Estes envios ainda não foram despachados; as etiquetas só existem após o envio: {postings}',
  },
  baseUrlNotAllowed: { zh: '只能使用Ozon的API地址或管理员允许的地址', en: 'Only Ozon\'s API address or an address the administrator allows may be used', pt: 'Só é possível usar o endereço da API da Ozon ou um endereço liberado pelo administrador' },
  baseUrlPrivate: { zh: '该地址指向内网或本机，不能使用', en: 'This address points into a private network or this machine and cannot be used', pt: 'Este endereço aponta para uma rede privada ou para esta máquina e não pode ser usado' },
  copySourceUnavailable: { zh: '暂时无法读取Ozon商品页，请稍后重试', en: 'Ozon\'s product pages cannot be read just now; please try again later', pt: 'Não é possível ler as páginas de produto da Ozon agora; tente de novo mais tarde' },
  copySkuNotFound: { zh: 'Ozon上找不到该SKU的商品', en: 'Ozon has no card with this SKU', pt: 'A Ozon não tem anúncio com este SKU' },
  copyNotRetryable: { zh: '只能重试失败的记录', en: 'Only failed copies can be retried', pt: 'Só cópias com falha podem ser tentadas de novo' },
  collectLinkInvalid: { zh: '不是Ozon或1688的商品链接', en: 'This is not an Ozon or 1688 product link', pt: 'Este não é um link de produto da Ozon ou da 1688' },
  collectPageNotFound: { zh: '来源网站上找不到该商品页', en: 'The source site has no such product page', pt: 'O site de origem não tem essa página de produto' },
  collectPageUnreadable: { zh: '该页面上没有可采集的商品（可能是验证页或已下架）', en: 'The page shows no product to collect (perhaps a verification page, or the product is gone)', pt: 'A página não mostra produto para coletar (talvez uma página de verificação, ou o produto saiu do ar)' },
  collectSiteUnreachable: { zh: '暂时无法打开来源网站，请稍后重试或使用采集插件', en: 'The source site cannot be reached just now; try again later or use the plugin', pt: 'O site de origem está inacessível agora; tente de novo mais tarde ou use o plugin' },
  collectSiteOff: { zh: '本服务器未开启按链接采集该网站，请使用采集插件', en: 'Collecting this site by link is not switched on for this server; use the plugin', pt: 'A coleta deste site por link não está ativada neste servidor; use o plugin' },
  collectionItemNotFound: { zh: '采集箱中找不到该商品', en: 'The product is not in your collection', pt: 'O produto não está na sua coleta' },
  collectionNeedsCategory: { zh: '「{title}」还未选择Ozon类目', en: '"{title}" has no Ozon category yet', pt: '"{title}" ainda não tem categoria da Ozon' },
  collectionNeedsDimensions: { zh: '「{title}」还未填写包装尺寸和重量', en: '"{title}" has no package dimensions and weight yet', pt: '"{title}" ainda não tem dimensões e peso da embalagem' },
  collectionNeedsVariant: { zh: '「{title}」没有选中任何变体', en: '"{title}" has no variant selected', pt: '"{title}" não tem nenhuma variação marcada' },
  collectionNeedsImages: { zh: '「{title}」没有图片', en: '"{title}" has no pictures', pt: '"{title}" não tem imagens' },
  collectionItemProblem: { zh: '「{title}」：{problem}', en: '"{title}": {problem}', pt: '"{title}": {problem}' },
  collectionVariantProblem: { zh: '「{title}」的变体「{variant}」：{problem}', en: '"{title}", variant "{variant}": {problem}', pt: '"{title}", variação "{variant}": {problem}' },
  collectionVariantUnknown: { zh: '变体不存在', en: 'No such variant', pt: 'Essa variação não existe' },
  pluginTokenInvalid: { zh: '插件令牌无效、已过期或已撤销，请在后台的“采集插件”页重新连接', en: 'The plugin token is invalid, expired or revoked; connect the plugin again on the app\'s plugin page', pt: 'O token do plugin é inválido, expirou ou foi revogado; conecte o plugin de novo na página do plugin no app' },
  pluginTokenScope: { zh: '插件令牌只能用于采集商品', en: 'A plugin token can only collect products', pt: 'Um token do plugin só pode coletar produtos' },
  memberLimit: { zh: '成员数已达套餐上限（最多{max}人），请先删除不再使用的成员或升级套餐', en: 'The plan allows at most {max} members; remove one you no longer use or upgrade the plan', pt: 'O plano permite no máximo {max} membros; remova um que não usa mais ou mude de plano' },
  pluginTokenLimit: { zh: '最多可同时有{max}个插件令牌，请先撤销不再使用的', en: 'At most {max} plugin tokens can be live at once; revoke one you no longer use', pt: 'No máximo {max} tokens do plugin podem estar ativos ao mesmo tempo; revogue um que não usa mais' },
  pluginTokenNotFound: { zh: '插件令牌不存在', en: 'No such plugin token', pt: 'Esse token do plugin não existe' },
  pluginNotBuilt: { zh: '本服务器尚未构建采集插件（运行 npm run build）', en: 'This server has no built plugin yet (run npm run build)', pt: 'Este servidor ainda não tem o plugin compilado (rode npm run build)' },
  // Ozon's card rules (contract/ozonCard.ts), shown against the field before sending and refused by /CreateProduct.
  cardCategoryRequired: { zh: '请选择类目和商品类型', en: 'Choose a category and a product type', pt: 'Escolha uma categoria e um tipo de produto' },
  cardNameRequired: { zh: '请填写商品名称', en: 'Enter the product name', pt: 'Informe o nome do produto' },
  cardNameTooLong: { zh: '商品名称不能超过{max}个字符', en: 'The product name may have at most {max} characters', pt: 'O nome do produto pode ter no máximo {max} caracteres' },
  cardImagesRequired: { zh: '请至少添加一张图片', en: 'Add at least one picture', pt: 'Adicione pelo menos uma imagem' },
  cardImagesTooMany: { zh: '图片最多{max}张', en: 'At most {max} pictures', pt: 'No máximo {max} imagens' },
  cardImageUrl: { zh: '图片须为http(s)开头的公开链接', en: 'A picture must be a public http(s) link', pt: 'A imagem deve ser um link público http(s)' },
  cardDimensionRequired: { zh: '请填写大于0的包装尺寸和重量', en: 'Enter the package size and weight, each above 0', pt: 'Informe as dimensões e o peso da embalagem, todos acima de 0' },
  cardDimensionTooLarge: { zh: '尺寸或重量超出Ozon允许的范围', en: 'The size or weight is beyond what Ozon accepts', pt: 'As dimensões ou o peso passam do que a Ozon aceita' },
  cardOfferIdRequired: { zh: '请填写货号（offer_id）', en: 'Enter the offer id', pt: 'Informe o código do vendedor' },
  cardOfferIdTooLong: { zh: '货号不能超过{max}个字符', en: 'The offer id may have at most {max} characters', pt: 'O código do vendedor pode ter no máximo {max} caracteres' },
  cardOfferIdDuplicate: { zh: '同一商品的各变体货号不能重复', en: 'Each variant needs its own offer id', pt: 'Cada variação precisa do próprio código do vendedor' },
  cardPriceInvalid: { zh: '请填写有效的价格（最多两位小数）', en: 'Enter a valid price (at most two decimals)', pt: 'Informe um preço válido (no máximo duas casas decimais)' },
  cardAttributeRequired: { zh: '「{name}」为必填属性', en: '"{name}" is required', pt: '"{name}" é obrigatório' },
  cardAttributeTooMany: { zh: '「{name}」最多填写{max}个值', en: '"{name}" takes at most {max} values', pt: '"{name}" aceita no máximo {max} valores' },
  cardAttributeFromDictionary: { zh: '「{name}」须从Ozon的可选值中选择', en: 'Pick "{name}" from Ozon\'s values', pt: 'Escolha "{name}" entre os valores da Ozon' },
  cardAttributeNotInteger: { zh: '「{name}」须为整数', en: '"{name}" must be a whole number', pt: '"{name}" deve ser um número inteiro' },
  cardAttributeNotNumber: { zh: '「{name}」须为数字', en: '"{name}" must be a number', pt: '"{name}" deve ser um número' },
  cardAttributeNotBoolean: { zh: '「{name}」须为“是”或“否”', en: '"{name}" must be yes or no', pt: '"{name}" deve ser sim ou não' },
  cardAttributeTooLong: { zh: '「{name}」过长（最多{max}个字符）', en: '"{name}" is too long (at most {max} characters)', pt: '"{name}" é longo demais (no máximo {max} caracteres)' },
  cardAttributeUnknown: { zh: '该类目没有编号为{id}的属性', en: 'This category has no attribute {id}', pt: 'Esta categoria não tem o atributo {id}' },
  cardNoShop: { zh: '请先在“店铺管理”中添加一个Ozon店铺', en: 'Add an Ozon shop under Shops first', pt: 'Adicione primeiro uma loja da Ozon em Lojas' },
  createTemplateNotFound: { zh: '该店铺中找不到此商品（请填写商品ID、SKU或货号）', en: 'This shop has no such product (enter its product id, SKU or offer id)', pt: 'Esta loja não tem esse produto (informe o ID do produto, o SKU ou o código do vendedor)' },
  priceTemplateNotFound: { zh: '定价模板不存在', en: 'The pricing template does not exist', pt: 'O modelo de precificação não existe' },
  productNotFound: { zh: '商品不存在', en: 'The product does not exist', pt: 'O produto não existe' },
  /** Ozon's gap between price and old price: 20 under 400, 5% from 400 to 10,000, 500 above. */
  priceGapTooSmall: {
    zh: '划线价须比售价至少高 {gap}（Ozon规则：售价400以下至少高20，400–10000至少高5%，10000以上至少高500）',
    en: 'The old price must be at least {gap} above the price (Ozon: 20 under 400, 5% from 400 to 10,000, 500 above)',
    pt: 'O preço riscado deve ficar pelo menos {gap} acima do preço (Ozon: 20 abaixo de 400, 5% de 400 a 10.000, 500 acima disso)',
  },
  minPriceAbovePrice: { zh: '最低价不能高于售价', en: 'The minimum price cannot be above the price', pt: 'O preço mínimo não pode ficar acima do preço' },
  priceNotPositive: { zh: '售价必须大于0', en: 'The price must be above 0', pt: 'O preço deve ser maior que 0' },
  priceChangesPerHour: {
    zh: '该商品1小时内已改价{count}次，Ozon每小时最多允许10次，请于{at}后再试',
    en: 'This product\'s price changed {count} times in the last hour; Ozon allows 10 an hour. Try again after {at}',
    pt: 'O preço deste produto mudou {count} vezes na última hora; a Ozon permite 10 por hora. Tente de novo depois de {at}',
  },
  stockTooSoon: {
    zh: '该商品在此仓库的库存30秒内只能修改一次，请于{seconds}秒后再试',
    en: 'Ozon takes one stock change per product and warehouse every 30 s; try again in {seconds} s',
    pt: 'A Ozon aceita uma alteração de estoque por produto e armazém a cada 30 s; tente de novo em {seconds} s',
  },
  stockNeedsSku: { zh: '商品尚未通过审核，不能设置库存', en: 'The product is not approved yet; its stock cannot be set', pt: 'O produto ainda não foi aprovado; não é possível definir o estoque' },
  warehouseNotOfShop: { zh: '该仓库不属于商品所在店铺', en: 'This warehouse does not belong to the product\'s shop', pt: 'Este armazém não pertence à loja do produto' },
  shopHasNoWarehouse: { zh: '商品所在店铺还没有仓库，库存未更新', en: "The product's shop has no warehouse yet; its stock was not set", pt: 'A loja do produto ainda não tem armazém; o estoque não foi alterado' },
  productArchivedAlready: { zh: '商品已在归档中', en: 'The product is already archived', pt: 'O produto já está arquivado' },
  productNotArchived: { zh: '商品不在归档中', en: 'The product is not archived', pt: 'O produto não está arquivado' },
  deleteNeedsArchive: { zh: '只能删除已归档的商品', en: 'Only archived products can be deleted', pt: 'Só produtos arquivados podem ser excluídos' },
  deleteHasSku: { zh: '已有SKU的商品Ozon不允许删除，只能归档', en: 'Ozon does not delete a product that has an SKU; it can only be archived', pt: 'A Ozon não exclui um produto que tem SKU; ele só pode ser arquivado' },
  alreadyInBatch: { zh: '此批次中已处理', en: 'Already handled in this batch', pt: 'Já tratado neste lote' },
  reuploadModerating: { zh: '商品正在审核中，审核结束后才能重新上架', en: 'The product is under moderation; it can be re-uploaded once moderation ends', pt: 'O produto está em moderação; pode ser republicado quando a moderação terminar' },
  reuploadUnderway: { zh: '该商品已在另一批重新上架中', en: 'This product is already being re-uploaded in another batch', pt: 'Este produto já está sendo republicado em outro lote' },
  reuploadNotRetryable: { zh: '只能重试失败的重新上架', en: 'Only failed re-uploads can be retried', pt: 'Só republicações com falha podem ser tentadas de novo' },
  reuploadOfferTaken: { zh: '无法为该商品生成未被占用的新货号', en: 'No free new offer id could be made for this product', pt: 'Não foi possível gerar um novo código do vendedor livre para este produto' },
  dailyCreateLimit: {
    zh: 'Ozon每日新建商品额度已用完（{usage}/{limit}），将于{at}重置',
    en: "Ozon's daily limit for new products is used up ({usage}/{limit}); it resets at {at}",
    pt: 'O limite diário da Ozon para produtos novos acabou ({usage}/{limit}); ele renova às {at}',
  },
  dailyUpdateLimit: {
    zh: 'Ozon每日更新商品额度不足：剩余{left}个，本次需要{need}个，将于{at}重置',
    en: "Ozon's daily limit for product updates is short: {left} left, {need} needed; it resets at {at}",
    pt: 'O limite diário da Ozon para atualizar produtos não basta: restam {left}, são necessários {need}; ele renova às {at}',
  },
  productPicturesFull: {
    zh: '上传的商品图片已达上限（最多{count}张、共{size}）；商品和任务都不再使用的图片会在上传{days}天后自动清理',
    en: 'Your uploaded product pictures are at the limit (at most {count} pictures, {size} in all); pictures no product or job uses are removed {days} days after upload',
    pt: 'Suas fotos de produto enviadas chegaram ao limite (no máximo {count} fotos, {size} no total); fotos que nenhum produto ou tarefa usa são apagadas {days} dias após o envio',
  },
  watermarkPicturesFull: {
    zh: '水印生成的图片已达上限（最多{count}张、共{size}）；商品和任务都不再使用的水印图片会在生成{days}天后自动清理',
    en: 'Your watermarked pictures are at the limit (at most {count} pictures, {size} in all); watermarked pictures no product or job uses are removed {days} days after they were made',
    pt: 'Suas fotos com marca d\'água chegaram ao limite (no máximo {count} fotos, {size} no total); fotos com marca d\'água que nenhum produto ou tarefa usa são apagadas {days} dias após serem geradas',
  },
  watermarkPicturesShort: {
    zh: '这次要生成{need}张水印图片，但只能再生成{left}张（最多{count}张、共{size}）；请少选一些商品，商品和任务都不再使用的水印图片会在生成{days}天后自动清理',
    en: 'This job would make {need} watermarked pictures, but only {left} more fit (at most {count} pictures, {size} in all); choose fewer products. Watermarked pictures no product or job uses are removed {days} days after they were made',
    pt: 'Esta tarefa geraria {need} fotos com marca d\'água, mas só cabem mais {left} (no máximo {count} fotos, {size} no total); escolha menos produtos. Fotos com marca d\'água que nenhum produto ou tarefa usa são apagadas {days} dias após serem geradas',
  },
  trackTooMany: { zh: '一次最多查询40个单号', en: 'At most 40 tracking numbers at a time', pt: 'No máximo 40 códigos de rastreio de uma vez' },
  trackNumberInvalid: { zh: '单号须为6-40位字母、数字或横线', en: 'A tracking number is 6 to 40 letters, digits or dashes', pt: 'Um código de rastreio tem de 6 a 40 letras, números ou hifens' },
  trackPrefixBuiltIn: { zh: '内置的前缀不能删除，可改为其他承运商', en: 'A built-in prefix cannot be removed; route it to another carrier instead', pt: 'Um prefixo embutido não pode ser removido; direcione-o para outra transportadora' },
  queryCancelled: { zh: '查询已取消（有更新的查询或页面已关闭）', en: 'The query was cancelled (a newer one was sent or the page was closed)', pt: 'A consulta foi cancelada (uma mais nova foi enviada ou a página foi fechada)' },
  exportTooLarge: {
    zh: '导出最多 {max} 行，此结果超过 {max} 行：请缩小筛选范围后再导出',
    en: 'An export holds at most {max} rows and this result has more: narrow the filters, then export again',
    pt: 'Uma exportação tem no máximo {max} linhas e este resultado tem mais: restrinja os filtros e exporte de novo',
  },
  marketImportFiles: {
    zh: '请依次上传商品文件（products.csv 或 products.jsonl）和关键词文件（keywords.csv 或 keywords.jsonl）',
    en: 'Upload the products file (products.csv or products.jsonl), then the keywords file (keywords.csv or keywords.jsonl)',
    pt: 'Envie o arquivo de produtos (products.csv ou products.jsonl) e depois o de palavras-chave (keywords.csv ou keywords.jsonl)',
  },
  marketImportRunning: {
    zh: '已有一次市场数据导入正在进行，请等待其完成',
    en: 'A market data import is already running; wait for it to finish',
    pt: 'Já há uma importação de dados de mercado em andamento; espere que termine',
  },
  // The market data import's refused lines (server/areas/research/importer.ts): `{field}` is the file's own column name.
  importFieldProblem: { zh: '{field}：{problem}', en: '{field}: {problem}', pt: '{field}: {problem}' },
  importInvalid: { zh: '格式不正确', en: 'is invalid', pt: 'é inválido' },
  importMustBe: { zh: '应为{type}', en: 'must be {type}', pt: 'deve ser {type}' },
  importTypeNumber: { zh: '数字', en: 'a number', pt: 'um número' },
  importTypeText: { zh: '文本', en: 'text', pt: 'um texto' },
  importTypeList: { zh: '列表', en: 'a list', pt: 'uma lista' },
  importTypeObject: { zh: 'JSON对象', en: 'a JSON object', pt: 'um objeto JSON' },
  importTypeNull: { zh: '空值', en: 'empty', pt: 'vazio' },
  importWhole: { zh: '须为整数', en: 'must be a whole number', pt: 'deve ser um número inteiro' },
  importNotNegative: { zh: '不能为负数', en: 'must not be negative', pt: 'não pode ser negativo' },
  importPositive: { zh: '须大于0', en: 'must be above 0', pt: 'deve ser maior que 0' },
  importAtLeast: { zh: '不能小于{min}', en: 'must be at least {min}', pt: 'deve ser no mínimo {min}' },
  importAtMost: { zh: '不能大于{max}', en: 'must be at most {max}', pt: 'deve ser no máximo {max}' },
  importNotEmpty: { zh: '不能为空', en: 'must not be empty', pt: 'não pode ficar vazio' },
  importTooLong: { zh: '最多{max}个字符', en: 'must have at most {max} characters', pt: 'deve ter no máximo {max} caracteres' },
  importTooManyItems: { zh: '最多{max}项', en: 'must hold at most {max} items', pt: 'deve ter no máximo {max} itens' },
  importSeriesEmpty: { zh: '至少须有一天的数据', en: 'must hold at least one day', pt: 'deve ter pelo menos um dia' },
  importTooManyDays: { zh: '最多{max}天', en: 'must hold at most {max} days', pt: 'deve ter no máximo {max} dias' },
  importSameDays: { zh: '天数须与 sales 相同', en: 'must hold as many days as sales', pt: 'deve ter tantos dias quanto sales' },
  importDate: { zh: '须为 yyyy-mm-dd 格式的日期', en: 'must be a date yyyy-mm-dd', pt: 'deve ser uma data aaaa-mm-dd' },
  importRealDate: { zh: '不是真实存在的日期', en: 'must be a real date', pt: 'deve ser uma data que existe' },
  importCountry: { zh: '须为两位大写国家代码（CN、RU…）', en: 'must be a two-letter country code (CN, RU …)', pt: 'deve ser um código de país de duas letras (CN, RU …)' },
  importHeaderLacks: { zh: '表头缺少以下列：{columns}', en: 'the header lacks the columns {columns}', pt: 'o cabeçalho não tem as colunas {columns}' },
  importQuoteOpen: { zh: '引号内的字段没有结束（该行可能被截断）', en: 'a quoted field is not closed (the line may be cut short)', pt: 'um campo entre aspas não foi fechado (a linha pode estar cortada)' },
  importFieldCount: { zh: '应有{expected}个字段，实际为{found}个（该行可能被截断）', en: 'expected {expected} fields, found {found} (the line may be cut short)', pt: 'eram esperados {expected} campos, há {found} (a linha pode estar cortada)' },
  importNotJson: { zh: '不是JSON对象（该行可能被截断）', en: 'not a JSON object (the line may be cut short)', pt: 'não é um objeto JSON (a linha pode estar cortada)' },
  importSkuRepeated: { zh: 'sku：{sku} 在前面的行中已出现', en: 'sku: {sku} appears on an earlier line', pt: 'sku: {sku} já aparece numa linha anterior' },
  importKeywordRepeated: { zh: 'keyword：“{keyword}”在前面的行中已出现', en: 'keyword: "{keyword}" appears on an earlier line', pt: 'keyword: "{keyword}" já aparece numa linha anterior' },
  importSkuUnknown: { zh: 'topSkus：{sku} 不是本次导入的商品', en: 'topSkus: {sku} is not a product of this import', pt: 'topSkus: {sku} não é um produto desta importação' },
  importSeriesEnd: {
    zh: 'from：该序列截止于{end}，本次导入的其他序列截止于{asOf}：所有序列须截止于同一天',
    en: "from: the series ends on {end}, the import's other series on {asOf}: every series must end on the same day",
    pt: 'from: a série termina em {end}, as outras séries da importação em {asOf}: todas devem terminar no mesmo dia',
  },
  importFileEmpty: { zh: '文件为空：第一行应为表头', en: 'the file is empty: a header line is expected', pt: 'o arquivo está vazio: era esperada uma linha de cabeçalho' },
  importNoProducts: { zh: '没有商品：导入会替换整个市场数据，因此必须包含商品', en: 'no products: an import replaces the whole market, so it needs them', pt: 'sem produtos: uma importação substitui todo o mercado, então precisa deles' },
  importRefused: { zh: '{count}行被拒绝，市场数据未改变', en: '{count} lines refused; the market was not changed', pt: '{count} linhas recusadas; o mercado não foi alterado' },
  importStopped: { zh: '导入中断：{reason}；市场数据未改变', en: 'the import stopped: {reason}; the market was not changed', pt: 'a importação parou: {reason}; o mercado não foi alterado' },
  importKeywordsMissing: { zh: '第二个文件须为 keywords.csv 或 keywords.jsonl', en: 'the second file must be keywords.csv or keywords.jsonl', pt: 'o segundo arquivo deve ser keywords.csv ou keywords.jsonl' },
  importKeywordsWrong: { zh: '第二个文件须为 keywords.csv 或 keywords.jsonl，而不是 {file}', en: 'the second file must be keywords.csv or keywords.jsonl, not {file}', pt: 'o segundo arquivo deve ser keywords.csv ou keywords.jsonl, não {file}' },
  importFileTooLarge: { zh: '{file} 超过 {max} GB', en: '{file} is larger than {max} GB', pt: '{file} tem mais de {max} GB' },
  postcodeInvalid: { zh: '邮编须为6位数字', en: 'A postcode is six digits', pt: 'Um CEP russo tem seis dígitos' },
  postcodeQueryShort: { zh: '请至少输入2个字', en: 'Enter at least two characters', pt: 'Digite pelo menos dois caracteres' },
  postcodeNoFile: { zh: '请选择俄罗斯邮政的邮编库文件（.zip 或 .dbf）', en: "Choose Russian Post's postcode file (.zip or .dbf)", pt: 'Escolha o arquivo de CEPs dos Correios da Rússia (.zip ou .dbf)' },
  postcodeFileInvalid: { zh: '邮编库文件无法导入，原数据保持不变：{reason}', en: 'The postcode file cannot be loaded; the current data stays: {reason}', pt: 'Não foi possível carregar o arquivo de CEPs; os dados atuais continuam: {reason}' },
  baseUrlUnresolved: { zh: '无法解析该地址的域名', en: 'The address\'s host name could not be resolved', pt: 'Não foi possível resolver o nome de host do endereço' },
  returnNotFound: { zh: '退货不存在', en: 'The return does not exist', pt: 'A devolução não existe' },
  returnNotRfbs: { zh: '只有rFBS退货申请可以在这里处理', en: 'Only rFBS return requests can be handled here', pt: 'Só solicitações de devolução rFBS podem ser tratadas aqui' },
  returnActionNotAllowed: { zh: '该退货申请当前状态不允许此操作，请刷新后重试', en: 'The return request\'s current state does not allow this action; refresh and try again', pt: 'A situação atual da solicitação de devolução não permite esta ação; atualize e tente de novo' },
  returnRejectReasonUnknown: { zh: '请选择Ozon提供的拒绝原因', en: 'Choose one of the rejection reasons Ozon offers', pt: 'Escolha um dos motivos de recusa que a Ozon oferece' },
  returnRejectCommentRequired: { zh: '该拒绝原因需要填写说明', en: 'This rejection reason needs a comment', pt: 'Este motivo de recusa exige um comentário' },
  returnCompensationTooHigh: { zh: '部分补偿金额必须小于商品价格', en: 'A partial compensation must be less than the product\'s price', pt: 'Uma compensação parcial deve ser menor que o preço do produto' },
} as const satisfies Record<string, Localized>;

export type MessageKey = keyof typeof MESSAGES;

/** The catalogue message for an error code, when the catalogue has a fixed text for it. */
export const MESSAGE_BY_CODE: Partial<Record<number, MessageKey>> = {
  401: 'unauthorized',
  402: 'tokenExpired',
  429: 'tooManyRequests',
  468: 'pageExpired',
  503: 'databaseUnavailable',
  504: 'marketplaceTimeout',
  507: 'duplicateUser',
  508: 'captchaMissing',
  509: 'captchaWrong',
};

/** Values put into a catalogue text's `{name}` placeholders: one per language, or the same in both. */
export type MessageParams = Record<string, string | Localized>;

export function message(key: MessageKey, lang: Lang = 'zh', params: MessageParams = {}): string {
  return MESSAGES[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : typeof value === 'string' ? value : value[lang];
  });
}

/** A catalogue text in every language, placeholders filled: what a stored reason (a shop's sync error) keeps. */
export function localized(key: MessageKey, params: MessageParams = {}): Localized {
  return eachLang((lang) => message(key, lang, params));
}
