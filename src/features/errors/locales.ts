import { defineLocales } from '@/app/locales/define';

/** The error pages' texts (namespace `errors`). */
export const errors = defineLocales({
  zh: {
    notFound: { title: '404', text: '抱歉，您访问的页面不存在或您没有权限访问。' },
    noPermission: { title: '无权限访问', roles: '此页面需要以下角色：{{roles}}', or: '或' },
  },
  en: {
    notFound: { title: '404', text: 'Sorry, this page does not exist or you may not open it.' },
    noPermission: { title: 'No permission', roles: 'This page opens with the role: {{roles}}', or: ' or ' },
  },
  pt: {
    notFound: { title: '404', text: 'Desculpe, esta página não existe ou você não tem permissão para abri-la.' },
    noPermission: { title: 'Sem permissão', roles: 'Esta página abre com o perfil: {{roles}}', or: ' ou ' },
  },
});
