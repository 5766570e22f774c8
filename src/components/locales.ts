import { defineLocales } from '@/app/locales/define';

/** The shared components' texts (namespace `components`): the tables' are shell texts, so every language holds them. */
export const components = defineLocales({
  zh: {
    warehousePicker: { title: '各店铺的仓库', shopLine: '{{shop}}（{{count}} 个）', warehouseOf: '{{shop}}的仓库', placeholder: '选择仓库', none: '该店铺还没有仓库，其商品不会更新' },
    picture: { loading: '图片加载中', failed: '图片无法显示：{{reason}}' },
    dialog: { confirm: '确定', cancel: '取消' },
    messageBox: { confirm: '确定', cancel: '取消', invalid: '输入的数据不合法', title: '提示' },
    dataTable: { query: '查询', reset: '重置', total: '共 {{total}} 条', empty: '暂无数据', selectAll: '全选', selectRow: '选择', allShops: '全部店铺' },
    virtualTable: { selectAll: '全选 {{total}} 条', selectRow: '选择第 {{row}} 行', resize: '调整“{{column}}”列宽' },
  },
  en: {
    warehousePicker: { title: 'Warehouse per shop', shopLine: '{{shop}} ({{count}})', warehouseOf: 'Warehouse of {{shop}}', placeholder: 'Choose a warehouse', none: 'This shop has no warehouse yet; its products are left as they are' },
    picture: { loading: 'Loading the picture', failed: 'The picture cannot be shown: {{reason}}' },
    dialog: { confirm: 'Confirm', cancel: 'Cancel' },
    messageBox: { confirm: 'OK', cancel: 'Cancel', invalid: 'the data entered is not valid', title: 'Notice' },
    dataTable: { query: 'Query', reset: 'Reset', total: 'Total {{total}}', empty: 'No data', selectAll: 'Select all', selectRow: 'Select', allShops: 'All shops' },
    virtualTable: { selectAll: 'Select all {{total}} rows', selectRow: 'Select row {{row}}', resize: 'Resize the {{column}} column' },
  },
  es: {
    warehousePicker: { title: 'Almacén por tienda', shopLine: '{{shop}} ({{count}})', warehouseOf: 'Almacén de {{shop}}', placeholder: 'Elija un almacén', none: 'Esta tienda aún no tiene almacén; sus productos no cambian' },
    picture: { loading: 'Cargando la imagen', failed: 'No se puede mostrar la imagen: {{reason}}' },
    dialog: { confirm: 'Confirmar', cancel: 'Cancelar' },
    messageBox: { confirm: 'Aceptar', cancel: 'Cancelar', invalid: 'los datos introducidos no son válidos', title: 'Aviso' },
    dataTable: { query: 'Buscar', reset: 'Restablecer', total: 'Total {{total}}', empty: 'Sin datos', selectAll: 'Seleccionar todo', selectRow: 'Seleccionar', allShops: 'Todas las tiendas' },
    virtualTable: { selectAll: 'Seleccionar las {{total}} filas', selectRow: 'Seleccionar la fila {{row}}', resize: 'Cambiar el ancho de la columna {{column}}' },
  },
  ja: {
    warehousePicker: { title: 'ショップごとの倉庫', shopLine: '{{shop}}（{{count}} 件）', warehouseOf: '{{shop}}の倉庫', placeholder: '倉庫を選択', none: 'このショップには倉庫がまだありません。商品は更新されません' },
    picture: { loading: '画像を読み込み中', failed: '画像を表示できません：{{reason}}' },
    dialog: { confirm: '確定', cancel: 'キャンセル' },
    messageBox: { confirm: 'OK', cancel: 'キャンセル', invalid: '入力されたデータが正しくありません', title: 'お知らせ' },
    dataTable: { query: '検索', reset: 'リセット', total: '全 {{total}} 件', empty: 'データがありません', selectAll: 'すべて選択', selectRow: '選択', allShops: 'すべてのショップ' },
    virtualTable: { selectAll: '全 {{total}} 行を選択', selectRow: '{{row}} 行目を選択', resize: '「{{column}}」列の幅を変更' },
  },
  pt: {
    warehousePicker: { title: 'Armazém por loja', shopLine: '{{shop}} ({{count}})', warehouseOf: 'Armazém de {{shop}}', placeholder: 'Escolha um armazém', none: 'Esta loja ainda não tem armazém; os produtos dela ficam como estão' },
    picture: { loading: 'Carregando a imagem', failed: 'Não é possível mostrar a imagem: {{reason}}' },
    dialog: { confirm: 'Confirmar', cancel: 'Cancelar' },
    messageBox: { confirm: 'OK', cancel: 'Cancelar', invalid: 'os dados informados não são válidos', title: 'Aviso' },
    dataTable: {
      query: 'Consultar',
      reset: 'Redefinir',
      total: 'Total {{total}}',
      empty: 'Sem dados',
      selectAll: 'Selecionar tudo',
      selectRow: 'Selecionar',
      allShops: 'Todas as lojas',
    },
    virtualTable: {
      selectAll: 'Selecionar todas as {{total}} linhas',
      selectRow: 'Selecionar a linha {{row}}',
      resize: 'Redimensionar a coluna {{column}}',
    },
  },
});
