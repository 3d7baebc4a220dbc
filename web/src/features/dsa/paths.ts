/** The notice pages' paths, apart so the post card links to them without loading their code. */
export const DSA_NOTICE_PATH = '/signalement-illicite';
export const DSA_CONFIRM_PATH = '/signalement-illicite/confirmer';
