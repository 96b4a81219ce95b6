import { z } from "zod";
import { pagedAnswer, pagedSearchQuery } from "#server/http/paging";
import { roleSchema } from "#server/modules/auth/model";

export const userListQuery = pagedSearchQuery;
export type UserListQuery = z.infer<typeof userListQuery>;

export const updateUserBody = z
  .object({
    disabled: z.boolean({ error: "disabled must be true or false" }).optional(),
    role: roleSchema.optional(),
  })
  .refine((b) => b.disabled !== undefined || b.role !== undefined, "Nothing to change: send disabled or role");
export type UpdateUserInput = z.infer<typeof updateUserBody>;

export const managedUser = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  role: roleSchema,
  disabled: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type ManagedUser = z.infer<typeof managedUser>;

export const userPage = pagedAnswer("users", managedUser);
export type UserPage = z.infer<typeof userPage>;
