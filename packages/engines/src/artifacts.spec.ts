import { describe, expect, it } from '@jest/globals';
import { removeArtifacts } from './artifacts.js';

describe('removeArtifacts', () => {
  it.each<[string, string]>([
    ['In this segment, Elizabeth meets Darcy. He is proud.', 'Elizabeth meets Darcy. He is proud.'],
    ['During the current excerpt of the story "the ball" is held.', '"The ball" is held.'],
    ['Elizabeth, in this part of the story, walks to Netherfield.', 'Elizabeth walks to Netherfield.'],
    ['Elizabeth meets Darcy in this passage. They argue.', 'Elizabeth meets Darcy. They argue.'],
    ['Lydia elopes. The updated summary now includes her marriage.', 'Lydia elopes.'],
    ['Chapter 12\n\nJane recovers. Chapter IV. Bingley leaves.', 'Jane recovers. Bingley leaves.'],
    ['Jane recovers.\n\nThis eBook is for the use of anyone anywhere.', 'Jane recovers.'],
    ['Acknowledgements: thanks to my editor. Jane recovers.', 'Jane recovers.'],
    [
      'Darcy writes a letter. Part two begins in the new section of the house.',
      'Darcy writes a letter. Part two begins in the new section of the house.',
    ],
    [
      'First paragraph ends.\n\nSecond paragraph\nwraps.',
      'First paragraph ends.\n\nSecond paragraph\nwraps.',
    ],
  ])('%j', (input, expected) => {
    expect(removeArtifacts(input)).toBe(expected);
  });
});
