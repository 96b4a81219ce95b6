/** The one global the page script defines in a captured page; page.evaluate calls go through it. */
export const PAGE_GLOBAL = "__designIntelPage";

/** Where the capture puts axe-core in a captured page (not `axe`: the page may have its own). */
export const AXE_GLOBAL = "__designIntelAxe";
