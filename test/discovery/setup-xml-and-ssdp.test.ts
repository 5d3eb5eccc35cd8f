import { describe, expect, it } from 'vitest';
import { parseWemoSetupXml } from '../../src-main/discovery/wemo-setup-xml';
import { mSearch, parseSsdpResponse } from '../../src-main/discovery/ssdp';
import { wemoSetupXml } from './fixtures/wemo-responder';

describe('parseWemoSetupXml', () => {
  it('reads the outlet device and the DLI parent controller', () => {
    const xml = wemoSetupXml({
      controller: { name: 'Bench A & B', model: 'LPC9', serial: 'LPC92712030336' },
      outletName: 'Router',
      position: 2,
      serial: 'e6428dc72',
    });
    expect(parseWemoSetupXml(xml)).toEqual({
      deviceType: 'urn:Belkin:device:controllee:1',
      friendlyName: 'Router',
      serialNumber: 'e6428dc72',
      udn: 'uuid:Socket-1_0-e6428dc72',
      parent: { name: 'Bench A & B', model: 'LPC9', serial: 'LPC92712030336', position: 2 },
    });
  });

  it('has no parent for a plain WeMo socket', () => {
    const xml = wemoSetupXml({ controller: null, outletName: 'Lamp', position: 0, serial: '221228K01002E4' });
    expect(parseWemoSetupXml(xml)).toMatchObject({ friendlyName: 'Lamp', parent: null });
  });

  it('accepts other spellings of the DLI extension: flat children, attributes, no prefix, CDATA', () => {
    const flat = `<root><device><deviceType>urn:Belkin:device:controllee:1</deviceType><friendlyName>Outlet 6</friendlyName>
      <X_dli><name><![CDATA[Rack 7]]></name><model>EPCR6</model><serial>EPCR5100045</serial><positionInParent>5</positionInParent></X_dli></device></root>`;
    expect(parseWemoSetupXml(flat).parent).toEqual({
      name: 'Rack 7',
      model: 'EPCR6',
      serial: 'EPCR5100045',
      position: 5,
    });
    const attrs = `<root><device><deviceType>urn:Belkin:device:controllee:1</deviceType>
      <d:X_dli xmlns:d="x" d:controllerName="Rack &#55;" serial='S1' positionInParent="0"></d:X_dli></device></root>`;
    expect(parseWemoSetupXml(attrs).parent).toEqual({
      name: 'Rack 7',
      model: null,
      serial: 'S1',
      position: 0,
    });
  });

  it('survives garbage', () => {
    expect(parseWemoSetupXml('not xml at all <<<')).toEqual({
      deviceType: null,
      friendlyName: null,
      serialNumber: null,
      udn: null,
      parent: null,
    });
  });
});

describe('SSDP messages', () => {
  it('builds an M-SEARCH for the WeMo controllee', () => {
    expect(mSearch().toString()).toBe(
      'M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: "ssdp:discover"\r\nMX: 2\r\nST: urn:Belkin:device:controllee:1\r\n\r\n',
    );
  });

  it('reads an answer’s headers and ignores anything else', () => {
    expect(
      parseSsdpResponse(
        'HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=86400\r\nLOCATION: http://10.0.0.5:49153/setup.xml\r\nST: urn:Belkin:device:controllee:1\r\n\r\n',
      ),
    ).toEqual({
      'cache-control': 'max-age=86400',
      location: 'http://10.0.0.5:49153/setup.xml',
      st: 'urn:Belkin:device:controllee:1',
    });
    expect(parseSsdpResponse('M-SEARCH * HTTP/1.1\r\nST: ssdp:all\r\n\r\n')).toBeNull();
    expect(parseSsdpResponse('NOTIFY * HTTP/1.1\r\n\r\n')).toBeNull();
  });
});
