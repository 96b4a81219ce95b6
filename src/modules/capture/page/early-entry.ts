// Entry of the early page script (see early.ts): bundled on its own and installed in every document.
import { installEarly } from "./early";

installEarly();
