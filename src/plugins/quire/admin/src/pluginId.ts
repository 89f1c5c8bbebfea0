import { translationId } from '#kernel/admin-ui/translations';

export const PLUGIN_ID = 'quire';

/** The id of one of this plugin's messages (translations/en.json holds them unprefixed). */
export const t = (id: string) => translationId(PLUGIN_ID, id);
