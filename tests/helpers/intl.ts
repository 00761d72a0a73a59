/**
 * How many Intl.DateTimeFormat objects `fn` builds, with or without `new`: a formatter with fixed
 * options is meant to be made once, when its module loads, not at every call.
 */
export function dateFormattersBuilt(fn: () => unknown): number {
  const original = Intl.DateTimeFormat
  let built = 0
  Intl.DateTimeFormat = new Proxy(original, {
    construct(target, args) {
      built++
      return Reflect.construct(target, args)
    },
    apply(target, thisArg, args) {
      built++
      return Reflect.apply(target, thisArg, args)
    },
  })
  try {
    fn()
  } finally {
    Intl.DateTimeFormat = original
  }
  return built
}
