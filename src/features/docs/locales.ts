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
  pt: {
    title: 'Documentação',
    intro: 'Este back office ajuda vendedores cross-border da Ozon a gerenciar lojas, pedidos, produtos e dados num só lugar. Esta página explica como usá-lo.',
    sections: {
      account: {
        heading: 'Login e sua conta',
        points: [
          'Entre com seu nome de usuário, senha e o código da imagem; clique na imagem para ver outra se estiver difícil de ler.',
          'Troque sua senha em "Perfil → Alterar senha"; as sessões em outros dispositivos terminam em seguida.',
          'Seus perfis decidem quais menus você vê: vendedores seguidores têm lojas, pedidos e produtos, pesquisadores de produtos têm a análise de dados e administradores têm tudo.',
        ],
      },
      menu: {
        heading: 'Menu e abas',
        points: [
          'O menu à esquerda lista as páginas que seus perfis podem abrir; o botão no canto superior esquerdo recolhe ou expande o menu, e a escolha fica salva.',
          'A caixa de pesquisa acima do menu encontra páginas pelo nome; com a pesquisa por pinyin ativa, o pinyin ou suas iniciais também funcionam, ex.: "ddgl" encontra 订单管理.',
          'As páginas abertas ficam como abas e mantêm o conteúdo enquanto você alterna entre elas. Feche uma aba com o botão do meio do mouse, com o ícone de fechar ou pelo menu do botão direito; a aba "Sobre o sistema" fica fixa.',
          'No menu do botão direito, "Atualizar" recarrega a página e "Fechar outras" mantém só aquela aba e as fixas; "Fechar todas", à direita da barra, fecha todas as abas que podem ser fechadas.',
        ],
      },
      topBar: {
        heading: 'Barra superior',
        points: [
          'O logotipo leva ao início; "Plugin" abre a página do plugin do navegador; "Documentação" abre esta página.',
          'A faixa de avisos mostra o aviso mais recente com a data; depois de fechado, aquele aviso continua fechado até que um mais novo seja publicado.',
          'Tamanho oferece pequeno, médio e grande; o menu de idioma oferece 简体中文, English e Português.',
          'O botão de configurações abre as configurações de layout: cor do tema, abas, cabeçalho fixo, logotipo na barra lateral e pesquisa por pinyin, salvas neste navegador.',
        ],
      },
      updates: {
        heading: 'Atualizações',
        points: [
          'Quando sai uma nova versão, uma notificação no canto superior direito avisa; clique nela para recarregar na nova versão.',
          'Quando chegam novos recursos, uma janela os lista; "Li, não mostrar novamente" a mantém fechada.',
        ],
      },
      admin: {
        heading: 'Administradores',
        points: [
          '"Console de operações → Usuários" pesquisa, adiciona, edita e exclui usuários, atribui perfis, define as validades de seguidor, plugin, pesquisa de produtos e palavras-chave e redefine senhas.',
          '"Console de operações → Avisos" publica, edita e exclui avisos; o mais recente aparece na faixa de avisos de todos os usuários.',
        ],
      },
    },
  },
});
