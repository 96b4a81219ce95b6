import { Text } from "@radix-ui/themes";
import type { ComponentProps, ReactNode } from "react";

/** A number on the console; placeholder figures (before the first answer) are dimmed and announced as loading. */
export function Figure({ loading, children, ...rest }: { loading: boolean; children: ReactNode } & ComponentProps<typeof Text>) {
  return (
    <Text
      {...rest}
      className={loading ? "di-admin-placeholder" : undefined}
      aria-busy={loading || undefined}
      data-placeholder={loading || undefined}
    >
      {children}
    </Text>
  );
}
