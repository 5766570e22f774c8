// The @fontsource stylesheets the designer imports on demand (src/features/edit/fonts.ts): side effects only.
declare module '@fontsource/*.css';
