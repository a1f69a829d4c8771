// A small event emitter: the library's whole event interface (no DOM EventTarget, so it runs
// the same in Node and in browsers).

/** @template {Record<string, any>} Events */
export class Emitter {
  constructor() {
    /** @type {Map<keyof Events, Set<(event: any) => void>>} */
    this.listeners = new Map();
  }

  /**
   * Calls `listener` for every `name` event; returns a function that removes it.
   * @template {keyof Events} K
   * @param {K} name
   * @param {(event: Events[K]) => void} listener
   * @returns {() => void}
   */
  on(name, listener) {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * @template {keyof Events} K
   * @param {K} name
   * @param {Events[K]} event
   */
  emit(name, event) {
    for (const listener of [...(this.listeners.get(name) ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        // A listener's bug must not stop the protocol (nor the other listeners).
        queueMicrotask(() => { throw error; });
      }
    }
  }
}

/** @param {Emitter<any>} emitter @param {string} name */
export function once(emitter, name) {
  return new Promise((resolve) => {
    const off = emitter.on(name, (event) => { off(); resolve(event); });
  });
}
