// What the floor page shows: a heading, a paragraph and a button. One definition for both sides: the build renders
// it into the document (webpack.config.js), the browser hydrates it (index.tsx).
const { createElement } = require('react');

function FloorPage() {
  return createElement(
    'main',
    null,
    createElement('h1', null, 'React floor'),
    createElement('p', null, 'React DOM hydrating three elements: the least start-up work a React page does.'),
    createElement(
      'button',
      {
        type: 'button',
        'aria-pressed': false,
        onClick: (event) => {
          const button = event.currentTarget;
          button.setAttribute('aria-pressed', String(button.getAttribute('aria-pressed') !== 'true'));
        },
      },
      'Press',
    ),
  );
}

module.exports = { FloorPage };
