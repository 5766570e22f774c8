/**
 * The database schema, every table of it: drizzle-kit reads this file (drizzle.config.ts) and the code imports its
 * tables from here. The tables live in tables/; a table file that references another's table imports it from that
 * file (tables/core.ts holds the accounts, shops, orders and chats the others point at), never from here, so no
 * import runs in a circle.
 */
export * from './tables/core';
export * from './tables/market';
export * from './tables/costs';
export * from './tables/promotions';
export * from './tables/copy';
export * from './tables/products';
export * from './tables/analysis';
export * from './tables/returns';
export * from './tables/tracking';
export * from './tables/edit';
export * from './tables/postcodes';
export * from './tables/reupload';
export * from './tables/watermark';
export * from './tables/push';
export * from './tables/collection';
export * from './tables/plugin';
export * from './tables/org';
export * from './tables/signin';
export * from './tables/access';
export * from './tables/translate';
export * from './tables/preferences';
