/**
 * The Core's exports the command line prints (the activity log's and the inventory's CSV), imported
 * by name from the Core's surface. A command loads this file, never `import('../core/index')` itself:
 * the whole surface as one dynamic import also brings the desktop shell's entry (the tray menu's code
 * lives there), which imports Electron and fails under Node.
 */
export { activityCsv, activityCsvPage, inventoryCsv } from '../core/index';
