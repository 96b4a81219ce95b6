import { Callout } from "@radix-ui/themes";
import { ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { MAINTENANCE_MESSAGE } from "../messages";

export function MaintenanceBanner({ since, by }: { since: string | null; by: string | null }) {
  return (
    <Callout.Root color="orange" role="status" mb="4" data-testid="maintenance-banner">
      <Callout.Icon>
        <ExclamationTriangleIcon />
      </Callout.Icon>
      <Callout.Text>
        {MAINTENANCE_MESSAGE}
        {by && since ? ` (switched on by ${by})` : ""}
      </Callout.Text>
    </Callout.Root>
  );
}
