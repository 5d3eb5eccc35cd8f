/** What `import … from 'electron'` gets under the stand-in: the modules boot.mjs built. */
const electron = globalThis.__plugboardElectronStandIn;
if (!electron)
  throw new Error('The Electron stand-in is not running: start the app with test/electron/standin/boot.mjs.');

export const {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  Notification,
  Tray,
  nativeImage,
  nativeTheme,
  session,
  shell,
} = electron;
export default electron;
