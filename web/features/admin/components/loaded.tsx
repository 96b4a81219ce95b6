import { Callout, Flex, Spinner, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

/**
 * A console dialog's list in its four states: the load error, a spinner while `data` is still
 * null, the empty message, or the rows (`children`, given the loaded data).
 */
export function Loaded<T>(props: {
  failed: string | null;
  data: T | null | undefined;
  loading: string;
  empty?: string;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const { failed, data } = props;
  if (failed)
    return (
      <Callout.Root color="red">
        <Callout.Text>{failed}</Callout.Text>
      </Callout.Root>
    );
  if (data === null || data === undefined)
    return (
      <Flex align="center" gap="2">
        <Spinner /> <Text size="2">{props.loading}</Text>
      </Flex>
    );
  if (props.empty && props.isEmpty?.(data))
    return (
      <Text size="2" color="gray">
        {props.empty}
      </Text>
    );
  return <>{props.children(data)}</>;
}
