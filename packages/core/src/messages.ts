/** Texts shared by forms and API that must not pull zod into a page's bundle. */
export const REQUIRED = 'O campo é obrigatório';
export const LOGIN_FAILED_MESSAGE = 'Ocorreu um erro tentar efetuar login';
