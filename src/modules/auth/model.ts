import { z } from "zod";

export const emailSchema = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Email is too long")
  .pipe(z.email("Please enter a valid email address"));

export const signupBody = z.object({
  email: emailSchema,
  password: z
    .string({ error: "Password is required" })
    .min(8, "Password must be at least 8 characters")
    .max(256, "Password must be at most 256 characters"),
  username: z
    .string()
    .trim()
    .max(50, "Username must be under 50 characters")
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** The one-time token printed at boot, needed for the first account when setup requires it. */
  setupToken: z.string().max(200).optional(),
});

export const loginBody = z.object({
  email: emailSchema,
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(256),
});

export const roleSchema = z.enum(["user", "admin"]);
export type Role = z.infer<typeof roleSchema>;

export const publicUser = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  role: roleSchema,
});
export type PublicUser = z.infer<typeof publicUser>;

export const authAnswer = z.object({ accessToken: z.string(), user: publicUser });
export type AuthAnswer = z.infer<typeof authAnswer>;

export type SignupInput = z.infer<typeof signupBody>;
export type LoginInput = z.infer<typeof loginBody>;
