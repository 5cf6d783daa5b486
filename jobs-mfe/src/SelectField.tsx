import { useId, type Ref } from 'react';
import styles from './SelectField.module.css';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps {
  label: string;
  /** The query parameter it is sent as when the form is submitted without JavaScript. */
  name?: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  ref?: Ref<HTMLSelectElement>;
}

/** A native select with its visible label: keyboard, screen reader and phone pickers all work as people know them. */
export function SelectField({ label, name, value, options, onChange, ref }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <div className={styles.control}>
        <select
          ref={ref}
          id={id}
          name={name}
          className={styles.select}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
