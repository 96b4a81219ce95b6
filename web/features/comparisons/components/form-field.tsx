import { Box, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

/** Label above, error below; the input carries `id` and points at `${id}-error` when invalid. */
export function FormField(props: { id: string; label: ReactNode; error?: string; children: ReactNode }) {
  return (
    <Box>
      <Text as="label" htmlFor={props.id} size="2" weight="medium" mb="1" style={{ display: "block" }}>
        {props.label}
      </Text>
      {props.children}
      {props.error && (
        <Text as="p" id={`${props.id}-error`} size="1" color="red" role="alert" mt="1" mb="0">
          {props.error}
        </Text>
      )}
    </Box>
  );
}

/** The aria attributes an input inside FormField needs. */
export const invalidProps = (id: string, error: string | undefined) =>
  error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
