/** Messages between measurement 13 and its child of emulated controllers (m13-lab-child.ts). */
export type LabRequest =
  | { id: number; cmd: 'start'; count: number; latencyMs: number }
  | { id: number; cmd: 'requests' }
  | { id: number; cmd: 'close' };

export type LabReply =
  | { id: number; ok: true; urls?: string[]; user?: string; password?: string; requests?: number }
  | { id: number; ok: false; error: string };
