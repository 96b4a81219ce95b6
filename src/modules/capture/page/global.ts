/** The one global the page script defines in a captured page; page.evaluate calls go through it. */
export const PAGE_GLOBAL = "__designIntelPage";
