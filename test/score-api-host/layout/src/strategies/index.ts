// The test host's src/strategies/index.ts: what score-api's tests import.
import strategies from './strategies';
import utils from './utils';
import validations from './validations';

export default {
  strategies,
  validations,
  utils
};
