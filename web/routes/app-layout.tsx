import { Outlet } from "react-router";
import { Protected } from "../components/layout/protected";

export function Component() {
  return (
    <Protected>
      <Outlet />
    </Protected>
  );
}
