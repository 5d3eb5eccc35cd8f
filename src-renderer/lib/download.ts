/** Save text as a file through the browser's download path (Electron shows its save dialog). */
export function downloadText(filename: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke on the next turn: the download has started by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
