/**
 * Reading the few facts Plugboard needs from a WeMo `setup.xml`. DLI controllers with "Enable UPnP"
 * expose each outlet as a Belkin "controllee" and add a `dli:X_dli` element naming the parent
 * controller (reference §9). Its exact child names are not published, so the reader accepts the
 * plausible spellings (elements or attributes, any namespace prefix) instead of guessing one.
 */

export interface DliParent {
  name: string | null;
  model: string | null;
  serial: string | null;
  /** Which outlet of the parent this WeMo device is (as DLI reports it). */
  position: number | null;
}

export interface WemoDevice {
  deviceType: string | null;
  friendlyName: string | null;
  serialNumber: string | null;
  udn: string | null;
  /** Present only on DLI controllers' WeMo emulation. */
  parent: DliParent | null;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower === 'amp') return '&';
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'quot') return '"';
    if (lower === 'apos') return "'";
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

function clean(text: string | undefined): string | null {
  if (text === undefined) return null;
  const value = decodeEntities(text.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')).trim();
  return value ? value.slice(0, 128) : null;
}

const PREFIX = String.raw`(?:[\w.-]+:)?`;

/** The inner text (and attributes) of the first element with this local name, any prefix. */
function element(xml: string, localName: string): { attributes: string; inner: string } | null {
  const pattern = new RegExp(
    String.raw`<${PREFIX}${localName}(\s[^>]*)?>([\s\S]*?)</${PREFIX}${localName}\s*>`,
    'i',
  );
  const match = pattern.exec(xml);
  return match ? { attributes: match[1] ?? '', inner: match[2] ?? '' } : null;
}

function leafText(xml: string, names: readonly string[]): string | null {
  for (const name of names) {
    const found = element(xml, name);
    if (found && !/<[a-z]/i.test(found.inner)) {
      const value = clean(found.inner);
      if (value) return value;
    }
  }
  return null;
}

function attribute(attributes: string, names: readonly string[]): string | null {
  for (const name of names) {
    const match = new RegExp(String.raw`\s${PREFIX}${name}\s*=\s*("([^"]*)"|'([^']*)')`, 'i').exec(
      attributes,
    );
    if (match) return clean(match[2] ?? match[3]);
  }
  return null;
}

const NAME = ['controllerName', 'friendlyName', 'deviceName', 'name'];
const MODEL = ['modelName', 'model', 'modelNumber'];
const SERIAL = ['serialNumber', 'serial'];
const POSITION = ['positionInParent', 'position'];

/** Parse a setup.xml document (bounded in size by the caller). */
export function parseWemoSetupXml(xml: string): WemoDevice {
  const extension = element(xml, 'X_dli');
  // The outlet's own device description, without the DLI block (its names would shadow the outlet's).
  const own = extension ? xml.replace(extension.inner, '') : xml;
  let parent: DliParent | null = null;
  if (extension) {
    const pick = (names: readonly string[]) =>
      leafText(extension.inner, names) ?? attribute(extension.attributes, names);
    const position = Number(pick(POSITION));
    parent = {
      name: pick(NAME),
      model: pick(MODEL),
      serial: pick(SERIAL),
      position: Number.isInteger(position) && position >= 0 ? position : null,
    };
  }
  return {
    deviceType: leafText(own, ['deviceType']),
    friendlyName: leafText(own, ['friendlyName']),
    serialNumber: leafText(own, ['serialNumber']),
    udn: leafText(own, ['UDN']),
    parent,
  };
}
