import { createCainiaoClient, parseCainiao } from '../../../server/integrations/tracking/cainiao';
import { parseOperationHistory, statusOfOperation } from '../../../server/integrations/tracking/russianPost';
import { parseTrackInfo } from '../../../server/integrations/tracking/track17';
import { CarrierUnavailable } from '../../../server/integrations/tracking/types';
import { parseOffice } from '../../../server/integrations/pochta/client';

const reasonOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error instanceof CarrierUnavailable ? error.reason : 'other';
  }
  return 'none';
};

describe('tracking adapters read what their services answer, and name what they cannot read', () => {
  it("Russian Post: operations newest first with the office's index; an unknown number; a refused login; not SOAP", () => {
    const record = (type: number, attr: number, date: string, index: string, name: string) =>
      `<ns3:historyRecord><ns3:AddressParameters><ns3:OperationAddress><ns3:Index>${index}</ns3:Index><ns3:Description>${name}</ns3:Description></ns3:OperationAddress></ns3:AddressParameters><ns3:OperationParameters><ns3:OperType><ns3:Id>${type}</ns3:Id><ns3:Name>T${type}</ns3:Name></ns3:OperType><ns3:OperAttr><ns3:Id>${attr}</ns3:Id><ns3:Name>A${attr}</ns3:Name></ns3:OperAttr><ns3:OperDate>${date}</ns3:OperDate></ns3:OperationParameters></ns3:historyRecord>`;
    const answer = `<S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope"><S:Body><ns7:getOperationHistoryResponse xmlns:ns7="http://russianpost.org/operationhistory"><ns3:OperationHistoryData xmlns:ns3="http://russianpost.org/operationhistory/data">${record(1, 1, '2026-11-01T10:00:00.000+03:00', '101000', 'Москва')}${record(8, 2, '2026-11-03T09:00:00.000+03:00', '630099', 'Новосибирск')}</ns3:OperationHistoryData></ns7:getOperationHistoryResponse></S:Body></S:Envelope>`;
    const read = parseOperationHistory(answer);
    expect(read).toMatchObject({ found: true, status: 'pickup' });
    if (!read.found) throw new Error('not found');
    expect(read.events.map((e) => e.place)).toEqual(['630099 Новосибирск', '101000 Москва']);
    expect(statusOfOperation(2, 1)).toBe('delivered');
    const fault = (detail: string) => `<S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope"><S:Body><S:Fault><S:Reason><S:Text>x</S:Text></S:Reason><S:Detail>${detail}</S:Detail></S:Fault></S:Body></S:Envelope>`;
    expect(parseOperationHistory(fault('<ns2:OperationHistoryFault xmlns:ns2="d">Не найдено</ns2:OperationHistoryFault>'))).toEqual({ found: false });
    expect(reasonOf(() => parseOperationHistory(fault('<ns2:AuthorizationFault xmlns:ns2="d">Ошибка</ns2:AuthorizationFault>')))).toBe('refused');
    expect(reasonOf(() => parseOperationHistory('<html>502 Bad Gateway</html>'))).toBe('format');
  });

  it('Cainiao: events in their zone, the place out of the text; no success is a refusal; down is down', async () => {
    const read = parseCainiao({
      success: true,
      module: [
        { mailNo: 'LP1', status: 'WAIT_SIGN', detailList: [{ time: Date.UTC(2026, 10, 2, 4, 0), timeZone: 'GMT+8', status: 'WAIT_SIGN', desc: '[Moscow] Arrived' }] },
        { mailNo: 'LP2', status: '', detailList: [] },
      ],
    });
    expect(read.get('LP1')).toEqual({ found: true, status: 'pickup', events: [{ time: '2026-11-02T12:00:00+08:00', place: 'Moscow', status: 'pickup', text: 'Arrived' }] });
    expect(read.get('LP2')).toEqual({ found: false });
    expect(reasonOf(() => parseCainiao({ success: false }))).toBe('refused');
    expect(reasonOf(() => parseCainiao({ success: true, module: [{ mailNo: 'LP3', detailList: [{ time: 'soon' }] }] }))).toBe('format');
    const down = createCainiaoClient({ baseUrl: 'http://cainiao.invalid', fetch: async () => new Response('busy', { status: 503 }) });
    await expect(down.track(['LP1'], 'en')).rejects.toMatchObject({ reason: 'unreachable' });
  });

  it('17TRACK: a refused key, an unregistered number to register, and its events', () => {
    expect(reasonOf(() => parseTrackInfo({ code: -18010002, data: { errors: [{ message: 'Access token is invalid.' }] } }))).toBe('refused');
    const read = parseTrackInfo({
      code: 0,
      data: {
        accepted: [{ number: 'YT1', track_info: { latest_status: { status: 'Delivered' }, tracking: { providers: [{ events: [{ time_iso: '2026-11-02T10:00:00+03:00', description: 'Delivered', location: 'Kazan', stage: 'Delivered' }] }] } } }],
        rejected: [{ number: 'YT2', error: { code: -18019902, message: 'does not register' } }],
      },
    });
    expect(read.answers.get('YT1')).toMatchObject({ found: true, status: 'delivered' });
    expect(read.unregistered).toEqual(['YT2']);
  });

  it("the post-office service: hours per weekday with lunch, a closed day, and an answer without an address", () => {
    const office = parseOffice({
      'address-source': 'г Казань, ул Кремлевская, д 8',
      'working-hours': [
        { 'weekday-id': 7 },
        { 'weekday-id': 1, 'begin-worktime': '08:00:00.000', 'end-worktime': '20:00:00.000', lunches: [{ 'begin-time': '13:00:00.000', 'end-time': '14:00:00.000' }] },
      ],
      latitude: '55.79',
    });
    expect(office.hours).toEqual([
      { weekday: 1, open: '08:00', close: '20:00', lunch: [{ from: '13:00', to: '14:00' }] },
      { weekday: 7, open: null, close: null, lunch: [] },
    ]);
    expect(office).toMatchObject({ latitude: 55.79, longitude: null, closed: false });
    expect(reasonOf(() => parseOffice({ 'working-hours': [] }))).toBe('format');
  });
});
