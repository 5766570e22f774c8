import type { ShellResources } from './shell';

export const es: ShellResources = {
  site: { title: 'Back office del vendedor', short: 'Back office', tagline: 'Un solo back office para vendedores transfronterizos en Ozon' },
  common: { loading: 'Cargando…', language: 'Idioma', logout: 'Cerrar sesión', backHome: 'Volver al inicio', save: 'Guardar', cancel: 'Cancelar' },
  route: {
    login: 'Iniciar sesión', register: 'Registrarse', forgot: 'Recuperar contraseña', notFound: 'Página no encontrada', redirect: 'Redirigiendo', home: 'Inicio',
    introduction: 'Acerca del sistema', profile: 'Perfil', modifyPsw: 'Cambiar contraseña', store: 'Tiendas', storeList: 'Lista de tiendas',
    copy: 'Copia de productos', copyProduct: 'Copiar productos', copyHistory: 'Historial de copias', collection: 'Recolección',
    collectionList: 'Productos recolectados', uploadHistory: 'Historial de subidas', create: 'Publicación de respaldo',
    createProduct1: 'Crear producto', createProduct2: 'Publicación de respaldo', edit: 'Edición de imágenes', editImage: 'Edición de imágenes',
    orders: 'Pedidos', orderList: 'Pedidos del marketplace', recordList: 'Pedidos registrados', allCopyHistory: 'Lista integrada de copias',
    product: 'Productos', ozonProductList: 'Lista de productos', ozProductList: 'Lista de productos (nueva)',
    ozReuploadProduct: 'Retirar y volver a publicar', action: 'Promociones', ozActionList: 'Lista de promociones',
    dataAnalysis: 'Análisis de datos', hotProductPro: 'Productos populares', hotNewProduct: 'Productos nuevos',
    cnProductPro: 'Productos de vendedores chinos', keyWord: 'Palabras clave', potentialProduct: 'Productos potenciales', marketData: 'Datos de mercado',
    returns: 'Devoluciones', returnList: 'Lista de devoluciones', returnListNew: 'Lista de devoluciones (nueva)', chat: 'Mensajes de compradores',
    chatList: 'Chats', analyze: 'Análisis de ventas', saleAnalyze: 'Ventas por tienda', track: 'Seguimiento', trackSearch: 'Seguimiento de paquetes',
    tool: 'Herramientas', currencyChange: 'Tipos de cambio', rusPost: 'Códigos postales rusos', ozonSeller: 'Ozon Seller',
    admin: 'Consola de operaciones', userManager: 'Usuarios', noticeManager: 'Avisos', featureUpdateManager: 'Novedades', team: 'Equipo', teamMembers: 'Miembros', teamRoles: 'Roles', teamDepartments: 'Departamentos', teamPositions: 'Puestos', teamLog: 'Registro de operaciones', teamOnline: 'Miembros en línea', teamSecurity: 'Seguridad de acceso', teamAccessPolicies: 'Políticas de acceso', teamAccessLog: 'Registro de accesos', teamApiClients: 'Sistemas de aplicación', docs: 'Documentación', plugin: 'Descargar plugin', flows: 'Flujos',
  },
  role: { admin: 'Administrador', follow: 'Vendedor seguidor', search: 'Investigación de productos', keyword: 'Investigación de palabras clave', common: 'Usuario normal' },
  navbar: {
    toggleSidebar: 'Contraer o expandir la barra lateral', plugin: 'Plugin', docs: 'Documentación', profile: 'Perfil', settings: 'Ajustes',
    size: 'Tamaño', sizes: { small: 'Pequeño', medium: 'Mediano', large: 'Grande' }, errorLog: 'Registro de errores',
    menuSearch: 'Buscar en el menú', menuSearchEmpty: 'Ningún menú coincide',
  },
  tagsView: { refresh: 'Actualizar', close: 'Cerrar', closeOthers: 'Cerrar otras', closeAll: 'Cerrar todas', closeTab: 'Cerrar pestaña {{title}}' },
  settings: {
    title: 'Ajustes de diseño', theme: 'Color del tema', tagsView: 'Mostrar pestañas', fixedHeader: 'Cabecera fija', sidebarLogo: 'Logo en la barra lateral',
    supportPinyinSearch: 'Búsqueda por pinyin', antiInspection: 'Bloquear herramientas de desarrollo', displayCurrency: 'Mostrar importes en', displayCurrencyHint: 'Junto a cada importe en su moneda, el importe al tipo del día del Banco de Rusia', currency: { original: 'Su propia moneda', CNY: 'Yuan CNY', RUB: 'Rublos RUB' },
    antiInspectionHint: 'Interfiere con los plugins del navegador y las herramientas de accesibilidad; desactivado por defecto y nunca activo en desarrollo.', reset: 'Restablecer',
  },
  notice: { label: 'Aviso', close: 'Cerrar aviso' },
  version: { title: 'Aviso del sistema', text: '¡Servicio actualizado! Haga clic para recargar' },
  featureUpdate: { close: 'Cerrar', confirm: 'Leído, no volver a mostrar' },
  errorLog: { title: 'Registro de errores', empty: 'Sin errores', message: 'Error', info: 'Ubicación', url: 'Página', time: 'Hora', clear: 'Vaciar' },
};
