export { MAX_PROBE_ADDRESSES, parseAddressRange, type AddressRange } from './address-range';
export {
  DiscoveryService,
  checkDiscoveryRequest,
  discover,
  type DiscoverOptions,
  type DiscoveryRequest,
  type DiscoveryServiceOptions,
  type DiscoveryTuning,
} from './discovery-service';
export { browseMdns, MDNS_SERVICE_TYPES, type MdnsBrowseOptions } from './mdns';
export { probeRange, type ProbeOptions } from './probe';
export { dliRealm, recogniseController, type Recognised } from './recognise';
export { DiscoveryResults, baseUrl, type Sighting } from './results';
export { searchSsdp, WEMO_SEARCH_TARGET, type SsdpSearchOptions } from './ssdp';
export { parseWemoSetupXml, type DliParent, type WemoDevice } from './wemo-setup-xml';
