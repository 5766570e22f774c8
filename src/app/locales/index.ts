import { defineLocales } from './define';
import { en } from './en';
import { es } from './es';
import { ja } from './ja';
import { pt } from './pt';
import { zh } from './zh';

/** The shell's namespace (`shell`, the default): site, menu and route titles, navbar, tags view, settings, notices. */
export const shell = defineLocales({ zh, en, es, ja, pt });
