/** What the customer feature offers the other features (the structure check allows no other way in). */

export { AddressInputs, type AddressValues } from './AddressInputs.tsx';
export { fetchCep } from './api.ts';
export { TagsInput } from './TagsInput.tsx';
