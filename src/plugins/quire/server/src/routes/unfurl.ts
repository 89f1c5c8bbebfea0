import { route } from './define';

export default [route('GET', '/unfurl', 'unfurl.preview')];
