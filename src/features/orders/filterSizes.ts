/** Fixed widths of the order filters' controls: their places are kept while they load and mount (see Slot). */
export const CHOICE_WIDTH = 200;
export const RANGE_WIDTH = 260;
export const AMOUNT_WIDTH = 100;
