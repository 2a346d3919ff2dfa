export const get = (path: string) => fetch(path);
