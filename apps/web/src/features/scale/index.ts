/** What the scale feature (issue 36) offers the other features. */

export { fetchWeighedLabel, useScaleSettings } from './api.ts';
export { LiveScalePanel } from './LiveScalePanel.tsx';
export { type LiveScale, useLiveScale } from './liveScale.ts';
export { ScaleSettingsSection } from './ScaleSettingsSection.tsx';
