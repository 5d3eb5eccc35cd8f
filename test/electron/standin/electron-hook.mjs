/** Node module hook (module.register): the bare specifier `electron` means the stand-in's facade. */
let facade;

export function initialize(data) {
  facade = data.facade;
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: facade, shortCircuit: true };
  return nextResolve(specifier, context);
}
