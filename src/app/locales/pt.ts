import type { ShellResources } from './shell';

export const pt: ShellResources = {
  site: { title: 'Back office do vendedor', short: 'Back office' },
  common: { loading: 'Carregando…', language: 'Idioma', logout: 'Sair', backHome: 'Voltar ao início', save: 'Salvar', cancel: 'Cancelar' },
  route: {
    login: 'Entrar', register: 'Cadastrar', notFound: 'Página não encontrada', redirect: 'Redirecionando', home: 'Início',
    introduction: 'Sobre o sistema', profile: 'Perfil', modifyPsw: 'Alterar senha', store: 'Lojas', storeList: 'Lista de lojas',
    copy: 'Cópia de produtos', copyProduct: 'Copiar produtos', copyHistory: 'Histórico de cópias', collection: 'Coleta',
    collectionList: 'Produtos coletados', uploadHistory: 'Histórico de envios', create: 'Anúncio de backup', createProduct1: 'Criar produto',
    createProduct2: 'Anúncio de backup', edit: 'Edição de imagens', editImage: 'Edição de imagens', orders: 'Pedidos',
    orderList: 'Pedidos do marketplace', recordList: 'Pedidos registrados', allCopyHistory: 'Lista integrada de cópias', product: 'Produtos',
    ozonProductList: 'Lista de produtos', ozProductList: 'Lista de produtos (nova)', ozReuploadProduct: 'Retirar e republicar',
    action: 'Promoções', ozActionList: 'Lista de promoções', dataAnalysis: 'Análise de dados', hotProductPro: 'Produtos em alta',
    hotNewProduct: 'Produtos novos', cnProductPro: 'Produtos de vendedores chineses', keyWord: 'Palavras-chave', potentialProduct: 'Produtos potenciais',
    returns: 'Devoluções', returnList: 'Lista de devoluções', returnListNew: 'Lista de devoluções (nova)', chat: 'Mensagens de compradores',
    chatList: 'Conversas', analyze: 'Análise de vendas', saleAnalyze: 'Vendas por loja', track: 'Rastreamento', trackSearch: 'Rastrear encomendas',
    tool: 'Ferramentas', currencyChange: 'Câmbio', rusPost: 'CEPs russos', ozonSeller: 'Ozon Seller', admin: 'Console de operações',
    userManager: 'Usuários', noticeManager: 'Avisos', featureUpdateManager: 'Novidades', docs: 'Documentação', plugin: 'Baixar plugin', flows: 'Fluxos',
  },
  role: { admin: 'Administrador', follow: 'Vendedor seguidor', search: 'Pesquisa de produtos', keyword: 'Pesquisa de palavras-chave', common: 'Usuário comum' },
  navbar: {
    toggleSidebar: 'Recolher ou expandir a barra lateral', plugin: 'Plugin', docs: 'Documentação', profile: 'Perfil', settings: 'Configurações',
    size: 'Tamanho', sizes: { small: 'Pequeno', medium: 'Médio', large: 'Grande' }, errorLog: 'Registro de erros',
    menuSearch: 'Pesquisar no menu', menuSearchEmpty: 'Nenhum menu corresponde',
  },
  tagsView: { refresh: 'Atualizar', close: 'Fechar', closeOthers: 'Fechar outras', closeAll: 'Fechar todas', closeTab: 'Fechar aba {{title}}' },
  settings: {
    title: 'Configurações de layout', theme: 'Cor do tema', tagsView: 'Mostrar abas', fixedHeader: 'Cabeçalho fixo', sidebarLogo: 'Logo na barra lateral',
    supportPinyinSearch: 'Pesquisa por pinyin', antiInspection: 'Bloquear ferramentas de desenvolvedor',
    antiInspectionHint: 'Interfere com plugins do navegador e ferramentas de acessibilidade; desativado por padrão e nunca ativo em desenvolvimento.', reset: 'Redefinir',
  },
  notice: { label: 'Aviso', close: 'Fechar aviso' },
  version: { title: 'Aviso do sistema', text: 'Serviço atualizado! Clique para recarregar' },
  featureUpdate: { close: 'Fechar', confirm: 'Li, não mostrar novamente' },
  errorLog: { title: 'Registro de erros', empty: 'Nenhum erro', message: 'Erro', info: 'Local', url: 'Página', time: 'Hora', clear: 'Limpar' },
};
