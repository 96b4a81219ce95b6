// What other modules may use of pages: the page as the API answers it (the comparison's export lists them).
export { toPageDto } from "./service";
