import { parseWithZod } from '@conform-to/zod/v4'
import { z } from '~/lib/validation/zod'

/**
 * Every form is read with Conform and its Zod schema, in the browser (before it is sent) and
 * again in the action. Our schemas read text themselves (`z.preprocess` to a string, so a
 * missing field gets the "is required" message), so Conform's own coercion, which would turn
 * empty strings into undefined before our preprocessors run, is switched off.
 */
export function parseSubmission<Schema extends z.ZodType>(formData: FormData, schema: Schema) {
  return parseWithZod(formData, { schema, disableAutoCoercion: true })
}

/** The HTML constraint attributes an input can carry. */
export interface Constraint {
  required?: boolean
  minLength?: number
  maxLength?: number
  min?: number
  max?: number
}

/**
 * The HTML constraints (required, minLength, maxLength, min, max) of an object schema's
 * fields, so inputs carry the limits the schema defines and nothing restates them. Conform's
 * `getZodConstraint` reads a cache that Zod 4.6 no longer fills (it answers `required` only),
 * so this reads the same facts from the public getters (`maxLength`, `minValue`, ...).
 */
export function constraintsOf(schema: z.ZodType): Record<string, Constraint> {
  const shape = objectShape(schema)
  const constraints: Record<string, Constraint> = {}
  for (const [name, field] of Object.entries(shape)) {
    constraints[name] = fieldConstraint(field as z.ZodType)
  }
  return constraints
}

function objectShape(schema: z.ZodType): Record<string, unknown> {
  const def = schema._zod.def as {
    type: string
    shape?: Record<string, unknown>
    in?: z.ZodType
    out?: z.ZodType
    options?: z.ZodType[]
  }
  if (def.type === 'object' && def.shape) return def.shape
  // A refined object (`.refine` keeps the type) or a transformed one (a pipe).
  if (def.type === 'pipe' && def.in) return objectShape(def.in)
  if (def.type === 'union' && def.options) {
    return Object.assign({}, ...def.options.map((option) => objectShape(option)))
  }
  return {}
}

function fieldConstraint(schema: z.ZodType): Constraint {
  let required = true
  let current: z.ZodType | undefined = schema
  for (let depth = 0; current && depth < 10; depth += 1) {
    const def = current._zod.def as {
      type: string
      in?: z.ZodType
      out?: z.ZodType
      innerType?: z.ZodType
    }
    if (def.type === 'optional' || def.type === 'default') {
      required = false
      current = def.innerType
    } else if (def.type === 'nullable' || def.type === 'readonly' || def.type === 'catch') {
      current = def.innerType
    } else if (def.type === 'pipe') {
      // A preprocess (transform -> schema) is described by its schema; a schema piped into a
      // transform or a format by its first half.
      current = def.in?._zod.def.type === 'transform' ? def.out : def.in
    } else {
      break
    }
  }
  const constraint: Constraint = { required }
  if (current instanceof z.ZodString) {
    // Our text fields read a missing value as '', so only a minimum length makes one required.
    constraint.required = required && current.minLength !== null && current.minLength > 0
    if (current.minLength !== null && current.minLength > 1)
      constraint.minLength = current.minLength
    if (current.maxLength !== null) constraint.maxLength = current.maxLength
  } else if (current instanceof z.ZodUnion) {
    // A union that accepts '' (an optional amount) is not required.
    const options = current.options as z.ZodType[]
    if (options.some((option) => option instanceof z.ZodLiteral && option.values.has(''))) {
      constraint.required = false
    }
  } else if (current instanceof z.ZodBoolean) {
    // A checkbox read as true or false (ticked or not): either answer is valid, so it is never
    // required. An HTML `required` checkbox must be ticked, and is announced as required.
    constraint.required = false
  } else if (current instanceof z.ZodNumber) {
    if (current.minValue !== null && Number.isFinite(current.minValue))
      constraint.min = current.minValue
    if (current.maxValue !== null && Number.isFinite(current.maxValue))
      constraint.max = current.maxValue
  }
  return constraint
}
