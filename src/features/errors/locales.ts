import { defineLocales } from '@/app/locales/define';

/** The error pages' texts (namespace `errors`). */
export const errors = defineLocales({
  zh: {
    notFound: { title: '404', text: '抱歉，您访问的页面不存在或您没有权限访问。' },
  },
  en: {
    notFound: { title: '404', text: 'Sorry, this page does not exist or you may not open it.' },
  },
  pt: { notFound: { title: '404', text: 'Desculpe, esta página não existe ou você não tem permissão para abri-la.' } },
});
