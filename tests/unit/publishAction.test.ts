import { CARD_PICTURES_MAX, cardPictures } from '@/features/edit/publishAction';

const ours = 'https://app.example/api/edit/picture/AbCdEfGhIjKlMnOpQrSt.jpg';
const card = (n: number) => Array.from({ length: n }, (_, k) => `https://cdn.example/${k}.jpg`);

describe("the designer's picture among a card's pictures", () => {
  it('as the main picture replaces the current main one and keeps the others in their order', () => {
    expect(cardPictures(card(3), ours, 'main')).toEqual([ours, 'https://cdn.example/1.jpg', 'https://cdn.example/2.jpg']);
    expect(cardPictures([], ours, 'main')).toEqual([ours]);
    // Sent again (a retry after Ozon took it): nothing else is lost.
    expect(cardPictures([ours, ...card(2)], ours, 'main')).toEqual([ours, ...card(2)]);
  });

  it('as an extra picture goes last, once, and is refused when the card is full', () => {
    expect(cardPictures(card(2), ours, 'extra')).toEqual([...card(2), ours]);
    expect(cardPictures([...card(2), ours], ours, 'extra')).toEqual([...card(2), ours]);
    expect(cardPictures(card(CARD_PICTURES_MAX), ours, 'extra')).toBeNull();
    expect(cardPictures(card(CARD_PICTURES_MAX), ours, 'main')).toHaveLength(CARD_PICTURES_MAX);
  });
});
