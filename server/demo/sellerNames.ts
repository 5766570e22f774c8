/**
 * Names of the generated market's Chinese sellers (a city and a shop word, as such shops are named): demo data, kept
 * out of server/areas, where Chinese text in code would be a message written inline.
 */
const CN_CITIES = ['深圳', '义乌', '广州', '杭州', '东莞', '宁波', '厦门', '泉州'];
const CN_WORDS = ['优品', '星辰', '海纳', '易购', '鑫源', '盛达', '云帆', '佳美', '宏图', '乐享'];

export const chineseSellerName = (sellerId: number) => `${CN_CITIES[sellerId % 8]}${CN_WORDS[Math.floor(sellerId / 8) % 10]}贸易 ${sellerId}`;
