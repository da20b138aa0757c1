// The one plain-object check lives in @boomerang/protocol; server modules import it from here.
export { isPlainObject } from '@boomerang/protocol';
