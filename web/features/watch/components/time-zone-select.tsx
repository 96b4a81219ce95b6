import { Select } from "@radix-ui/themes";
import { useMemo } from "react";
import { groupTimeZones, timeZones } from "../time-zones";

interface Props {
  value: string;
  onChange(zone: string): void;
  /** The id of the label naming this field. */
  labelledBy: string;
  id?: string;
}

/** Every IANA zone this browser knows, grouped by region; type to jump to one. */
export function TimeZoneSelect({ value, onChange, labelledBy, id }: Props) {
  const groups = useMemo(() => groupTimeZones(timeZones(value)), [value]);
  return (
    <Select.Root value={value} onValueChange={onChange}>
      <Select.Trigger id={id} aria-labelledby={labelledBy} style={{ width: "100%" }} data-testid="time-zone-select" />
      <Select.Content position="popper" style={{ maxHeight: 360 }}>
        {groups.map(([region, zones]) => (
          <Select.Group key={region}>
            <Select.Label>{region}</Select.Label>
            {zones.map((z) => (
              <Select.Item key={z} value={z}>
                {z.replaceAll("_", " ")}
              </Select.Item>
            ))}
          </Select.Group>
        ))}
      </Select.Content>
    </Select.Root>
  );
}
