/** The id parameter schemas live in core (the endpoint declarations use them): re-exported here. */
export { clientParams, idParam, idParams } from '@balcao/core/params';
